/**
 * What a person is told when their session has ended, by why it ended (review 37b #1: "signed out
 * in another tab, by an admin, or after a time without use" left them guessing, and they kept
 * trying a password an admin had reset). Said on the sign-in page and in the API's 401.
 */
import type { SessionEnd } from "../store/team-store";
import { ABSOLUTE_MS, IDLE_MS } from "./people-sessions";

/** The proxy does not know the reader's time zone: UTC, said as such. */
const when = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The person as they are now, when known: advice that no longer fits is not given (review 39a #5). */
export interface PersonNow {
  disabled: boolean;
  hasPassword: boolean;
}

export function sessionEndText(end: SessionEnd, now?: PersonNow): string {
  const at = when(end.at);
  switch (end.reason) {
    case "signed-out":
      return `Your session ended: you signed out, in another tab or window, at ${at}. Sign in again to go on.`;
    case "signed-out-everywhere":
      return `Your session ended: you signed out of all your sessions, this one too, at ${at}. Sign in again to go on.`;
    case "ended-by-self":
      return `Your session ended: you ended it from another of your sessions (Account, Sessions) at ${at}. Sign in again to go on.`;
    case "ended-by-admin":
      return `Your session ended: an admin ended your sessions at ${at}. Sign in again to go on; ask an admin if you do not know why.`;
    case "password-reset":
      return now?.hasPassword
        ? `Your session ended: an admin reset your password at ${at}; a new one has been set since. Sign in with it.`
        : `Your session ended: an admin reset your password at ${at}, so the old one no longer works. Ask them for the link to set a new one.`;
    case "password-set":
      return `Your session ended: your password was changed at ${at}. Sign in with the new one.`;
    case "disabled":
      return now && !now.disabled
        ? `Your session ended: an admin disabled your account at ${at}; it has been enabled again since. Sign in again to go on.`
        : `Your session ended: an admin disabled your account at ${at}. Ask an admin to enable it again.`;
    case "access-changed":
      return `Your session ended: your role or access was changed at ${at}. Sign in again to go on with what you may do now.`;
    case "idle":
      return `Your session ended: it was not used for ${IDLE_MS / 3_600_000} hours (ended at ${at}). Sign in again to go on.`;
    case "expired":
      return `Your session ended: a session lasts at most ${ABSOLUTE_MS / 86_400_000} days (ended at ${at}). Sign in again to go on.`;
  }
}
