import { expect, it } from "vitest";
import { clientKey, createAttemptLimiter } from "./login-limiter";

it("remembers at most maxClients clients, forgetting the least recently failing first", () => {
  const limiter = createAttemptLimiter(2, 1000, 100);
  for (let i = 0; i < 2; i++) limiter.fail("target", i);
  expect(limiter.retryAfter("target", 10)).toBe(1);
  for (let i = 0; i < 10_000; i++) limiter.fail(`other-${i}`, 20);
  expect(limiter.size()).toBe(100);
  // Each client's list is bounded too: a client hammering away keeps `max` entries.
  for (let i = 0; i < 1000; i++) limiter.fail("hammer", 30);
  expect(limiter.size()).toBe(100);
});

it("forgets clients whose failures left the window", () => {
  const limiter = createAttemptLimiter(2, 1000, 100);
  limiter.fail("a", 0);
  expect(limiter.size()).toBe(1);
  expect(limiter.retryAfter("a", 2000)).toBe(0);
  expect(limiter.size()).toBe(0);
});

it("counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4", () => {
  expect(clientKey("2001:db8:1:2:aaaa::1")).toBe(clientKey("2001:db8:1:2:bbbb::2"));
  expect(clientKey("2001:db8:1:3::1")).not.toBe(clientKey("2001:db8:1:2::1"));
  expect(clientKey("::ffff:10.0.0.1")).toBe("10.0.0.1");
  expect(clientKey("10.0.0.2")).toBe("10.0.0.2");
  expect(clientKey(undefined)).toBe("unknown");
});
