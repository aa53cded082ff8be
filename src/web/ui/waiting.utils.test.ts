import { expect, it } from "vitest";
import { SLOW_AFTER_MS, slowWaitSeconds } from "./waiting.utils";

it("says nothing of a short wait, then counts whole seconds", () => {
  expect(slowWaitSeconds(0)).toBeUndefined();
  expect(slowWaitSeconds(SLOW_AFTER_MS - 1)).toBeUndefined();
  expect(slowWaitSeconds(SLOW_AFTER_MS)).toBe(3);
  expect(slowWaitSeconds(61_900)).toBe(61);
});
