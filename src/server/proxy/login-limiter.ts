/**
 * Wrong passwords, limited per client: at most `max` failures in a sliding window, then 429
 * until the oldest leaves the window. Bounded: at most `maxClients` clients are remembered
 * (least recently failing forgotten first, expired ones dropped as they are met), and an IPv6
 * client counts by its /64, which one host can fill with addresses. Pure apart from the clock
 * passed in.
 */
import ipaddr from "ipaddr.js";

export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_CLIENTS = 10_000;

/** The unit a limit applies to: an IPv4 address, or the /64 of an IPv6 one. */
export function clientKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return address ?? "unknown";
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16)).join(":")}::/64`;
}

export function createAttemptLimiter(max = MAX_FAILURES, windowMs = FAILURE_WINDOW_MS, maxClients = MAX_CLIENTS) {
  // Map order is recency order: a failure moves its client to the end.
  const failures = new Map<string, number[]>();
  const recent = (who: string, now: number) => (failures.get(who) ?? []).filter((t) => now - t < windowMs);
  return {
    /** Seconds until the next attempt is allowed, or 0. */
    retryAfter(who: string, now = Date.now()): number {
      const list = recent(who, now);
      if (list.length === 0) failures.delete(who);
      return list.length >= max ? Math.ceil((list[0] + windowMs - now) / 1000) : 0;
    },
    fail(who: string, now = Date.now()) {
      const list = recent(who, now).slice(-(max - 1));
      list.push(now);
      failures.delete(who);
      failures.set(who, list);
      while (failures.size > maxClients) failures.delete(failures.keys().next().value as string);
    },
    succeed(who: string) {
      failures.delete(who);
    },
    /** How many clients are remembered (for tests of the bound). */
    size: () => failures.size,
  };
}
