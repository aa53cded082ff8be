/**
 * The login in front of the proxy when BASEBOARD_PASSWORD is set (required to bind anything but
 * loopback). Sessions are random tokens kept in memory (a restart logs everyone out) in an
 * HttpOnly, SameSite=Strict cookie; failed attempts are limited per client address.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ownOrigins } from "./guard";
import { PAGE_SECURITY_HEADERS } from "./headers";
import { loginPage } from "./login-page";

export interface SessionGate {
  isAuthenticated(req: IncomingMessage): boolean;
  /** Handles /login and /logout, and turns away pages without a session. True when it answered. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string, host: string): Promise<boolean>;
}

export const COOKIE = "bb_session";
const SESSION_MS = 12 * 3600 * 1000;
export const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Counts failures per address in a sliding window; pure apart from the clock passed in. */
export function createAttemptLimiter(max = MAX_FAILURES, windowMs = FAILURE_WINDOW_MS) {
  const failures = new Map<string, number[]>();
  const recent = (who: string, now: number) => (failures.get(who) ?? []).filter((t) => now - t < windowMs);
  return {
    /** Seconds until the next attempt is allowed, or 0. */
    retryAfter(who: string, now = Date.now()): number {
      const list = recent(who, now);
      return list.length >= max ? Math.ceil((list[0] + windowMs - now) / 1000) : 0;
    },
    fail(who: string, now = Date.now()) {
      const list = recent(who, now);
      list.push(now);
      failures.set(who, list);
      if (failures.size > 10_000) failures.delete(failures.keys().next().value as string);
    },
    succeed(who: string) {
      failures.delete(who);
    },
  };
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

async function readForm(req: IncomingMessage, limit = 4096): Promise<URLSearchParams | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** Only a path of this app may follow a login (no //evil.example, no absolute URL). */
export function safeNext(next: string | null | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.includes("\\") ? next : "/";
}

export function createSessionGate(opts: { password: string; publicOrigin?: string }): SessionGate {
  const expected = digest(opts.password);
  const sessions = new Map<string, number>();
  const limiter = createAttemptLimiter();
  const secure = opts.publicOrigin?.startsWith("https:") ? "; Secure" : "";

  const isAuthenticated = (req: IncomingMessage) => {
    const token = readCookie(req.headers.cookie, COOKIE);
    const expires = token ? sessions.get(token) : undefined;
    if (!token || !expires) return false;
    if (expires < Date.now()) {
      sessions.delete(token);
      return false;
    }
    return true;
  };

  const html = (res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...PAGE_SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...extra });
    res.end(body);
  };
  const redirect = (res: ServerResponse, location: string, extra: Record<string, string> = {}) => {
    res.writeHead(303, { location, "cache-control": "no-store", ...extra });
    res.end();
  };
  const sameOrigin = (req: IncomingMessage, host: string) =>
    typeof req.headers.origin === "string" && ownOrigins(host, opts.publicOrigin).includes(req.headers.origin);

  async function login(req: IncomingMessage, res: ServerResponse, host: string) {
    const who = req.socket.remoteAddress ?? "unknown";
    const wait = limiter.retryAfter(who);
    if (wait > 0) return html(res, 429, loginPage({ error: `Too many wrong passwords. Try again in ${Math.ceil(wait / 60)} min.` }), { "retry-after": String(wait) });
    if (!sameOrigin(req, host)) return html(res, 403, loginPage({ error: "This form was sent from another site. Open the login page directly." }));
    const form = await readForm(req);
    const given = form?.get("password") ?? "";
    if (!timingSafeEqual(digest(given), expected)) {
      limiter.fail(who);
      return html(res, 401, loginPage({ error: "Wrong password.", next: form?.get("next") ?? "/" }));
    }
    limiter.succeed(who);
    const token = randomBytes(32).toString("base64url");
    const now = Date.now();
    if (sessions.size > 1000) for (const [t, expires] of sessions) if (expires < now) sessions.delete(t);
    sessions.set(token, now + SESSION_MS);
    const cookie = `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}${secure}`;
    return redirect(res, safeNext(form?.get("next")), { "set-cookie": cookie });
  }

  async function handle(req: IncomingMessage, res: ServerResponse, pathname: string, host: string): Promise<boolean> {
    if (pathname === "/login") {
      if (req.method === "POST") await login(req, res, host);
      else html(res, 200, loginPage({ next: safeNext(new URL(req.url ?? "/", "http://x").searchParams.get("next")) }));
      return true;
    }
    if (pathname === "/logout" && req.method === "POST") {
      if (!sameOrigin(req, host)) {
        html(res, 403, loginPage({ error: "Log out from Baseboard's own page." }));
        return true;
      }
      const token = readCookie(req.headers.cookie, COOKIE);
      if (token) sessions.delete(token);
      redirect(res, "/login", { "set-cookie": `${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure}` });
      return true;
    }
    if (isAuthenticated(req)) return false;
    redirect(res, `/login?next=${encodeURIComponent(safeNext(req.url))}`);
    return true;
  }

  return { isAuthenticated, handle };
}
