import { expect, it } from "vitest";
import { createRevokedSessions } from "./revoked-sessions";

it("refuses a logged-out token until it would have expired", () => {
  const revoked = createRevokedSessions(10);
  revoked.revoke("a", 1000, 0);
  expect(revoked.has("a", 999)).toBe(true);
  expect(revoked.has("b", 999)).toBe(false);
  expect(revoked.has("a", 1000)).toBe(false);
  expect(revoked.size()).toBe(0);
});

it("keeps at most max tokens however many logouts there are, the newest kept", () => {
  const revoked = createRevokedSessions(100);
  for (let i = 0; i < 5000; i++) revoked.revoke(`t${i}`, 10_000, i);
  expect(revoked.size()).toBe(100);
  expect(revoked.has("t4999", 5000)).toBe(true);
  expect(revoked.has("t0", 5000)).toBe(false);
});

it("drops expired tokens first", () => {
  const revoked = createRevokedSessions(3);
  revoked.revoke("old1", 10, 0);
  revoked.revoke("old2", 10, 0);
  revoked.revoke("keep", 1000, 0);
  revoked.revoke("new", 1000, 20);
  expect(revoked.size()).toBe(2);
  expect(revoked.has("keep", 20)).toBe(true);
  expect(revoked.has("new", 20)).toBe(true);
});
