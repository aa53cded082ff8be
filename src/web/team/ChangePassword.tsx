/**
 * My account → Change password (review 39b #3: only an admin's reset could): the current one,
 * the new one twice. The server checks the current one and the rules for any password; the
 * other sessions end, this one goes on.
 */
import { useId, useRef, useState } from "react";
import { ApiError } from "../api-client";
import { toast } from "../ui/toast";
import { usePeopleMutation } from "./people-mutation";

export function ChangePassword({ onChanged }: { onChanged(): void }) {
  const id = useId();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [error, setError] = useState<{ field: "current" | "next" | "again"; message: string } | null>(null);
  const change = usePeopleMutation({ handlesErrors: true });
  const busy = change.isPending;
  const refs = { current: useRef<HTMLInputElement>(null), next: useRef<HTMLInputElement>(null), again: useRef<HTMLInputElement>(null) };
  const fail = (field: "current" | "next" | "again", message: string) => {
    setError({ field, message });
    refs[field].current?.focus();
  };
  const submit = async () => {
    if (busy) return;
    if (!current) return fail("current", "Type your password now.");
    if (next !== again) return fail("again", "The two new passwords differ: type the same one twice.");
    setError(null);
    try {
      const r = await change.mutateAsync({ kind: "change-my-password", current, password: next });
      setCurrent("");
      setNext("");
      setAgain("");
      const n = r.otherSessionsEnded ?? 0;
      toast("Password changed", { kind: "success", detail: n ? `Your ${n === 1 ? "other session was" : `${n} other sessions were`} signed out; this one goes on.` : "This session goes on." });
      onChanged();
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      fail(e instanceof ApiError && /current password/i.test(message) ? "current" : "next", message);
    }
  };
  const described = (field: "current" | "next" | "again") => (error?.field === field ? `${id}-error` : field === "next" ? `${id}-hint` : undefined);
  return (
    <form
      className="change-password"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 id={`${id}-title`}>Change password</h2>
      <label>
        Current password
        <input ref={refs.current} className="input" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} aria-invalid={error?.field === "current" || undefined} aria-describedby={described("current")} />
      </label>
      <label>
        New password
        <input ref={refs.next} className="input" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} aria-invalid={error?.field === "next" || undefined} aria-describedby={described("next")} />
      </label>
      <label>
        New password again
        <input ref={refs.again} className="input" type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} aria-invalid={error?.field === "again" || undefined} aria-describedby={described("again")} />
      </label>
      <p id={`${id}-hint`} className="muted small">
        At least 12 characters. Your other sessions are signed out; this one goes on.
      </p>
      {error && (
        <p id={`${id}-error`} className="error-text" role="alert">
          {error.message}
        </p>
      )}
      {/* Not `disabled` while it works: the focus stayed on nothing once it was (review 46b #4). */}
      <button type="submit" className="btn btn-primary" aria-disabled={busy || undefined}>
        {busy ? "Changing…" : "Change password"}
      </button>
    </form>
  );
}
