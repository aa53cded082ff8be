import { expect, it } from "vitest";
import { DEFAULT_BACKOFF, failuresAfterCrash, restartDelay } from "./backoff";

const policy = { baseMs: 100, maxMs: 1000, maxFailures: 6, stableMs: 5000 };

it("doubles the delay per consecutive failure, up to the cap, then gives up", () => {
  expect([0, 1, 2, 3, 4, 5].map((n) => restartDelay(policy, n))).toEqual([100, 200, 400, 800, 1000, 1000]);
  expect(restartDelay(policy, 6)).toBeUndefined();
});

it("starts the count over after a healthy run, and counts a quick death", () => {
  expect(failuresAfterCrash(policy, 4, 5000)).toBe(0);
  expect(failuresAfterCrash(policy, 4, 4999)).toBe(5);
  expect(restartDelay(DEFAULT_BACKOFF, failuresAfterCrash(DEFAULT_BACKOFF, 3, 60_000))).toBe(DEFAULT_BACKOFF.baseMs);
});
