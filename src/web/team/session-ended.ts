/**
 * The tab's session has ended: say so over the page (which may no longer be shown) and go to the
 * sign-in page, which brings the person back to this view. Called by the API client on the
 * proxy's "sign in first" answer, whichever request got it; only the first call acts.
 */
import { SESSION_ENDED_REASON } from "../../shared/meta";
import { create } from "zustand";
import { endedBecause, signInAgainUrl } from "./session-ended.utils";

/** Long enough to read the notice; the link in it goes at once. */
export const SIGN_IN_AGAIN_AFTER_MS = 2000;

export const useSessionEnded = create<{ signInUrl: string | null; signingOut: boolean; handingOver: boolean; because?: string }>(() => ({
  signInUrl: null,
  signingOut: false,
  handingOver: false,
}));

/**
 * The single user is adding the first person from the People page: that turns sign-in on, and
 * this tab's requests are then refused as from nobody. Not a session that ended: the page stays
 * (with the new person's invite link, which was lost under the notice and the sign-in page).
 */
export function handOverToPeople(on = true): void {
  useSessionEnded.setState({ handingOver: on });
}

/** Called just before the tab leaves for the sign-in page (to keep what was typed). */
const beforeLeaving = new Set<() => void>();
export function onSessionEnding(fn: () => void): () => void {
  beforeLeaving.add(fn);
  return () => void beforeLeaving.delete(fn);
}
/** Runs them all; the notice's link calls it too, since it leaves at once. */
export function keepBeforeLeaving(): void {
  for (const fn of beforeLeaving) {
    try {
      fn();
    } catch {
      /* one that fails must not keep the others from running */
    }
  }
}

/** `message`: the proxy's 401, which says why when it kept that. */
export function sessionEnded(message = ""): void {
  const { signInUrl, signingOut, handingOver } = useSessionEnded.getState();
  if (signInUrl !== null || signingOut || handingOver) return;
  const to = signInAgainUrl(window.location.pathname, window.location.search);
  if (!to) return;
  useSessionEnded.setState({ signInUrl: to, because: endedBecause(message) });
  setTimeout(() => {
    keepBeforeLeaving();
    window.location.assign(to);
  }, SIGN_IN_AGAIN_AFTER_MS);
}

/** The person signed this tab out themselves: to the sign-in page, without the notice. */
/** `ended`: the sign-in page says why the session ended (signed out everywhere: review 57b #5). */
export function signOutToLogin(ended = false): void {
  useSessionEnded.setState({ signingOut: true });
  window.location.assign(ended ? `/login?reason=${SESSION_ENDED_REASON}` : "/login");
}

// Back after signing out brought the page back from the browser's memory (bfcache), still
// "signing out", and its requests then failed: "Baseboard cannot reach its server". Loaded again
// instead, the server sends it to the sign-in page (or, signed in again, shows it as it is now).
if (typeof window !== "undefined") {
  window.addEventListener("pageshow", (e) => {
    if (e.persisted && useSessionEnded.getState().signingOut) window.location.reload();
  });
}
