/**
 * Session tokens logged out on this proxy, refused until they would have expired anyway.
 * Signed tokens need no session table, but a logout must still end the session here; this list
 * is bounded (at most `max` tokens: expired ones are dropped first, then the oldest), so a
 * client logging out in a loop cannot grow the proxy's memory. Pure apart from the clock passed in.
 */
export const MAX_REVOKED = 10_000;

export function createRevokedSessions(max = MAX_REVOKED) {
  // Map order is insertion order: the first entries are the oldest logouts.
  const until = new Map<string, number>();
  return {
    revoke(token: string, expiresAt: number, now: number) {
      until.delete(token);
      until.set(token, expiresAt);
      for (const [t, end] of until) if (end <= now) until.delete(t);
      while (until.size > max) until.delete(until.keys().next().value as string);
    },
    has(token: string, now: number): boolean {
      const end = until.get(token);
      if (end === undefined) return false;
      if (end > now) return true;
      until.delete(token);
      return false;
    },
    size: () => until.size,
  };
}
