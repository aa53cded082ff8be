/** After this long a wait says it is slow (most answers come in well under a second). */
export const SLOW_AFTER_MS = 3000;

/** How many whole seconds a slow wait has lasted, or undefined while it is not slow yet. */
export function slowWaitSeconds(elapsedMs: number): number | undefined {
  return elapsedMs >= SLOW_AFTER_MS ? Math.floor(elapsedMs / 1000) : undefined;
}
