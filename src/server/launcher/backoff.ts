/**
 * When to restart a service that died, and when to stop trying. Pure, so the policy is tested
 * without processes. A crash after a long healthy run restarts almost at once; a service that
 * keeps dying on its way up (a corrupt database, a full disk at start-up) is retried less and
 * less often and, after `maxFailures` failed starts in a row, left down (the log says why).
 */
export interface BackoffPolicy {
  /** First delay, doubled per consecutive failure. */
  baseMs: number;
  maxMs: number;
  /** Consecutive failed starts after which the supervisor gives up. */
  maxFailures: number;
  /** A run at least this long counts as healthy: the failure count starts over. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 30_000, maxFailures: 10, stableMs: 30_000 };

/** Delay before the next start after `failures` consecutive failures, or undefined to give up. */
export function restartDelay(policy: BackoffPolicy, failures: number): number | undefined {
  if (failures >= policy.maxFailures) return undefined;
  return Math.min(policy.maxMs, policy.baseMs * 2 ** failures);
}

/** The failure count after a child that ran for `ranMs` died. */
export function failuresAfterCrash(policy: BackoffPolicy, failures: number, ranMs: number): number {
  return ranMs >= policy.stableMs ? 0 : failures + 1;
}
