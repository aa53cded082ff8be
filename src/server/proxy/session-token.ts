/**
 * Login sessions as signed, expiring tokens (the proxy keeps no session table, so memory stays
 * flat however many logins there are, and any proxy holding the same secret accepts a token
 * another one issued). Pure: the clock and the random nonce are passed in.
 *
 * Token: `<expiry, ms since epoch, base36>.<nonce>.<HMAC-SHA256, base64url>`. The MAC key is
 * derived from the session secret AND the password, so changing BASEBOARD_PASSWORD (or the
 * secret) ends every session at once.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

export const SESSION_MS = 12 * 3600 * 1000;

export interface SessionSigner {
  issue(now: number, nonce: string): string;
  /** True for a token this secret and password issued that has not expired at `now`. */
  verify(token: string | undefined, now: number): boolean;
  /** When a token verify() accepted expires (ms since epoch). */
  expiresAt(token: string): number;
}

export function createSessionSigner(secret: string, password: string, lifetimeMs = SESSION_MS): SessionSigner {
  const key = createHmac("sha256", secret).update("baseboard session\0").update(createHash("sha256").update(password, "utf8").digest()).digest();
  const mac = (payload: string) => createHmac("sha256", key).update(payload).digest();
  return {
    issue(now, nonce) {
      const payload = `${(now + lifetimeMs).toString(36)}.${nonce}`;
      return `${payload}.${mac(payload).toString("base64url")}`;
    },
    verify(token, now) {
      if (!token || token.length > 200) return false;
      const [expiry, nonce, given, ...rest] = token.split(".");
      if (!expiry || !nonce || !given || rest.length) return false;
      const expected = mac(`${expiry}.${nonce}`);
      const got = Buffer.from(given, "base64url");
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) return false;
      const expires = parseInt(expiry, 36);
      return Number.isFinite(expires) && now < expires;
    },
    expiresAt: (token) => parseInt(token.split(".")[0], 36),
  };
}
