/** Over everything once the session has ended, until the sign-in page loads (session-ended.ts). */
import { useId } from "react";
import { Dialog } from "../ui/Dialog";
import { keepBeforeLeaving, useSessionEnded } from "./session-ended";

export function SessionEndedNotice() {
  const signInUrl = useSessionEnded((s) => s.signInUrl);
  const because = useSessionEnded((s) => s.because);
  const id = useId();
  if (!signInUrl) return null;
  return (
    <Dialog labelledBy={id} className="dialog-framed session-ended" canClose={false} onClose={() => {}}>
      <div className="dialog-body" role="alert">
        <h2 id={id}>Your session has ended</h2>
        {because ? (
          <p>{because}</p>
        ) : (
          <>
            <p>You have been signed out: from another tab, by an admin (a password reset, a role or access change), or because the session expired.</p>
            <p>If your password no longer works, an admin may have reset it: ask them for the link to set a new one.</p>
          </>
        )}
        <p>What is on this page may be out of date; values you typed and had not saved are kept for when you are back.</p>
        <p>
          Taking you to the sign-in page; after signing in you come back here.{" "}
          <a href={signInUrl} data-autofocus="" onClick={keepBeforeLeaving}>
            Sign in again
          </a>
        </p>
      </div>
    </Dialog>
  );
}
