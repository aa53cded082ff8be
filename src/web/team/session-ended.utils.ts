/**
 * When the tab's session has ended (signed out elsewhere, ended or disabled by an admin, idle or
 * expired), the proxy answers every /api call 401 `auth_error` with subCode 10. Other 401s (the
 * upstream refusing the proxy's API key) are not about the person and are shown as errors.
 */
import type { ErrorBody } from "../../shared/errors";
import { LOGIN_REQUIRED_SUBCODE, SESSION_ENDED_REASON } from "../../shared/meta";

export const isSignInRequired = (status: number, body: Pick<ErrorBody, "error" | "subCode">): boolean =>
  status === 401 && body.error === "auth_error" && body.subCode === LOGIN_REQUIRED_SUBCODE;

/**
 * The sign-in page that says the session ended and brings the person back to this view (`next`),
 * or undefined on the pages
 * the proxy serves to sign in, where sending them on again would loop.
 */
export function signInAgainUrl(pathname: string, search: string): string | undefined {
  if (pathname === "/login" || pathname === "/logout" || pathname.startsWith("/invite/") || pathname.startsWith("/auth/")) return undefined;
  return `/login?next=${encodeURIComponent(`${pathname}${search}`)}&reason=${SESSION_ENDED_REASON}`;
}

/**
 * Why the session ended, when the proxy kept it ("Your session ended: an admin reset your
 * password at …"), without the "(open /login)" meant for scripts; undefined for the bare
 * "Sign in to Baseboard first" (a reason not kept, or a request with no session at all).
 */
export function endedBecause(message: string): string | undefined {
  return message.startsWith("Your session ended:") ? message.replace(/\s*\(open \/login\)$/, "") : undefined;
}
