/**
 * How many wrong passwords a person gets: at signing in (per account and per address) and when
 * changing their own (the current one, per person). One rule for both.
 */
import { createAttemptLimiter } from "../../proxy/login-limiter";

export const SIGN_IN_LIMIT = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

export const wrongPasswordLimiter = () => createAttemptLimiter(SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS);
