/**
 * How many wrong passwords a person gets: at signing in (per account and per address) and when
 * changing their own (the current one, per person). One rule for both.
 */
import { createAttemptLimiter } from "../../proxy/login-limiter";

export const SIGN_IN_LIMIT = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/**
 * Wrong sign-ins from one address, across accounts: enough for a team behind one NAT or reverse
 * proxy (review 52b #2: one person's ten typos at 10 locked everyone there out, admins included),
 * few enough to stop a run of guesses spread over many accounts.
 */
export const SIGN_IN_ADDRESS_LIMIT = 50;

export const wrongPasswordLimiter = () => createAttemptLimiter(SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS);
export const wrongSignInsFromAddress = () => createAttemptLimiter(SIGN_IN_ADDRESS_LIMIT, SIGN_IN_WINDOW_MS);
