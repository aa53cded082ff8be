/** My sessions: where I am signed in, ending one or all (the current one included, which signs me out). */
import { useQuery } from "@tanstack/react-query";
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
  const endAll = () => !change.isPending && change.mutate({ kind: "end-my-sessions" }, { onSuccess: signOutToLogin });
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
              onEnd={(id, current) => change.mutate({ kind: "end-my-session", id }, { onSuccess: () => current && signOutToLogin() })}
            />
          )}
          <button type="button" className="btn btn-danger" onClick={endAll} aria-disabled={change.isPending || undefined}>
            Sign out everywhere
          </button>
          {sessions.isError && <p className="error-text">{sessions.error.message}</p>}
          <p className="muted small">Sessions end after 12 hours without use, and 7 days after signing in. Times are shown {formatWhen.zone}.</p>
        </>
      )}
      {me?.mode === "people" && <ChangePassword onChanged={() => void sessions.refetch()} />}
    </div>
  );
}
