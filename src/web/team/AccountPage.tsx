/** My sessions: where I am signed in, ending one or all (the current one included, which signs me out). */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "../ui/Dialog";
import { announce } from "../ui/announce";
import { formatWhen, SessionsTable } from "./SessionsTable";
import { meQueryOptions } from "./me-get-query";
import { usePeopleMutation } from "./people-mutation";
import { mySessionsQueryOptions } from "./people-list-query";
import { signOutToLogin } from "./session-ended";
import { ChangePassword } from "./ChangePassword";

export function AccountPage() {
  const me = useQuery(meQueryOptions()).data;
  const sessions = useQuery(mySessionsQueryOptions());
  const change = usePeopleMutation();
  // Asked first, as ending someone's sessions is (review 57b #5); the sign-in page then says why.
  const [askAll, setAskAll] = useState(false);
  const endAll = () => !change.isPending && change.mutate({ kind: "end-my-sessions" }, { onSuccess: () => signOutToLogin(true) });
  return (
    <div className="team-page">
      <h1>My account</h1>
      {me && (
        <p>
          <strong>{me.name}</strong> · {me.email} · role <strong>{me.role}</strong>
        </p>
      )}
      <h2>Sessions</h2>
      {me && me.mode !== "people" ? (
        // Nobody signs in here: there are no sessions to end (review 47b #6 offered a button that failed).
        <p className="muted">Nobody signs in here ({me.mode === "password" ? "one shared password" : "a single user on this machine"}), so there are no sessions to list or end.</p>
      ) : (
        <>
          {sessions.data && (
            <SessionsTable
              items={sessions.data.items}
              onEnd={(id, current) => {
                const at = sessions.data.items.findIndex((x) => x.id === id);
                const when = formatWhen(sessions.data.items[at]?.createdAt);
                change.mutate(
                  { kind: "end-my-session", id },
                  {
                    onSuccess: () => {
                      if (current) return signOutToLogin();
                      // Said, and the focus on the End button now in its place (review 57b #6: the
                      // row went silently and the focus fell to the page).
                      announce(`Ended the session signed in ${when}.`);
                      void sessions.refetch().then(() =>
                        requestAnimationFrame(() => {
                          const ends = document.querySelectorAll<HTMLElement>("[data-end-session]");
                          (ends[Math.min(at, ends.length - 1)] ?? document.querySelector<HTMLElement>(".team-page .btn-danger"))?.focus();
                        }),
                      );
                    },
                  },
                );
              }}
            />
          )}
          <button type="button" className="btn btn-danger" onClick={() => setAskAll(true)} aria-disabled={change.isPending || undefined}>
            Sign out everywhere
          </button>
          {askAll && (
            <ConfirmDialog title="Sign out everywhere?" confirmLabel="Sign out everywhere" danger busy={change.isPending} onConfirm={endAll} onCancel={() => setAskAll(false)}>
              <p>Every session of yours ends, this one too ({sessions.data?.items.length ?? "all"} in all): each browser asks you to sign in again.</p>
            </ConfirmDialog>
          )}
          {sessions.isError && <p className="error-text">{sessions.error.message}</p>}
          <p className="muted small">Sessions end after 12 hours without use, and 7 days after signing in. Times are shown {formatWhen.zone}.</p>
        </>
      )}
      {me?.mode === "people" && <ChangePassword onChanged={() => void sessions.refetch()} />}
    </div>
  );
}
