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
  // Map order is recency order: a failure moves its client to the end. Each failure may carry
  // a tag (the account an address tried), so that a right password takes back only its own.
  const failures = new Map<string, { at: number; tag?: string }[]>();
  const recent = (who: string, now: number) => (failures.get(who) ?? []).filter((f) => now - f.at < windowMs);
  return {
    /** Seconds until the next attempt is allowed, or 0. */
    retryAfter(who: string, now = Date.now()): number {
      const list = recent(who, now);
      if (list.length === 0) failures.delete(who);
      return list.length >= max ? Math.ceil((list[0].at + windowMs - now) / 1000) : 0;
    },
    /**
     * A wrong attempt, or one about to be checked: counted now, so that attempts in flight at
     * once count (review 34a #2: forty sent together were all checked, each counted only after
     * its slow hash). Call right after `retryAfter` said 0, with nothing awaited between.
     */
    fail(who: string, now = Date.now(), tag?: string) {
      const list = recent(who, now).slice(-(max - 1));
      list.push({ at: now, tag });
      failures.delete(who);
      failures.set(who, list);
      while (failures.size > maxClients) failures.delete(failures.keys().next().value as string);
    },
    /**
     * The right password. Without a tag (an account, the shared password) every miss is
     * forgotten; with one (an address) only the misses at that account: one good sign-in had
     * cleared an address's misses at every other account, so one address could try without
     * end across accounts (review 34a #5).
     */
    succeed(who: string, tag?: string) {
      if (tag === undefined) return void failures.delete(who);
      const list = failures.get(who)?.filter((f) => f.tag !== tag);
      if (list?.length) failures.set(who, list);
      else failures.delete(who);
    },
    /** Attempts left in the window before the next is refused. */
    left(who: string, now = Date.now()): number {
      return Math.max(0, max - recent(who, now).length);
    },
    /** How many clients are remembered (for tests of the bound). */
    size: () => failures.size,
  };
}
