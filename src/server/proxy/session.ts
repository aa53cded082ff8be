/**
 * The login in front of the proxy when BASEBOARD_PASSWORD is set (required to bind anything but
 * loopback). A session is a signed, expiring token (session-token.ts) in an HttpOnly,
 * SameSite=Strict cookie: nothing is kept per session, a restart keeps everyone logged in, and
 * every proxy with the same secret accepts it. Failed attempts are limited per client
 * (login-limiter.ts, bounded).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { formFromOwnPage } from "./guard";
import { PAGE_SECURITY_HEADERS } from "./headers";
import { clientKey, createAttemptLimiter } from "./login-limiter";
import { LOGIN_ENDED_NOTICE, loginPage } from "./login-page";
import { SESSION_ENDED_REASON } from "../../shared/meta";
import { FORM_TOO_LARGE, readForm } from "./read-form";
import { createRevokedSessions } from "./revoked-sessions";
import { createSessionSigner, SESSION_MS } from "./session-token";

export { createAttemptLimiter, MAX_FAILURES } from "./login-limiter";

export interface SessionGate {
  isAuthenticated(req: IncomingMessage): boolean;
  /** Handles /login and /logout, and turns away pages without a session. True when it answered. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string, host: string): Promise<boolean>;
}

export const COOKIE = "bb_session";

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/**
 * Where to go after signing in: a path on this server, else "/". Control characters are refused
 * (a URL parser drops tabs and newlines, so "/\t/evil.example" is "//evil.example"; CR/LF cannot
 * be in a header at all: review 30a #2), and anything else outside printable ASCII is
 * percent-encoded, since a Location header holds bytes, not text.
 */
export function safeNext(next: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\") || /[\u0000-\u001f\u007f]/.test(next)) return "/";
  const path = next.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));
  // Back to a page of the app, never to a step of signing in (review 50b #3: /auth/oidc/start,
  // without single sign-on set up, ended on "There is no page here").
  if (/^\/(auth|login|logout|invite)(\/|\?|$)/.test(path)) return "/";
  return new URL(path, "http://baseboard.invalid").host === "baseboard.invalid" ? path : "/";
}

export function createSessionGate(opts: { password: string; secret: string; publicOrigin?: string; lifetimeMs?: number; bodyIdleMs?: number }): SessionGate {
  const expected = digest(opts.password);
  const lifetimeMs = opts.lifetimeMs ?? SESSION_MS;
  const signer = createSessionSigner(opts.secret, opts.password, lifetimeMs);
  const limiter = createAttemptLimiter();
  const secure = opts.publicOrigin?.startsWith("https:") ? "; Secure" : "";

  // Tokens logged out on this proxy, until they expire anyway (bounded: revoked-sessions.ts).
  const loggedOut = createRevokedSessions();
  const isAuthenticated = (req: IncomingMessage) => {
    const token = readCookie(req.headers.cookie, COOKIE);
    const now = Date.now();
    return signer.verify(token, now) && !loggedOut.has(token as string, now);
  };
  const logOut = (token: string | undefined) => {
    const now = Date.now();
    if (token && signer.verify(token, now)) loggedOut.revoke(token, signer.expiresAt(token), now);
  };

  const html = (res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...PAGE_SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...extra });
    res.end(body);
  };
  const redirect = (res: ServerResponse, location: string, extra: Record<string, string> = {}) => {
    res.writeHead(303, { location, "cache-control": "no-store", ...extra });
    res.end();
  };
  const sameOrigin = (req: IncomingMessage, host: string) => formFromOwnPage(req.headers, host, opts.publicOrigin);

  /** 429 while the client has used up its wrong attempts (`wait` seconds left), else false. */
  const tooMany = (res: ServerResponse, wait: number) =>
    wait > 0 && (html(res, 429, loginPage({ error: `Too many wrong passwords. Try again in ${Math.ceil(wait / 60)} min.` }), { "retry-after": String(wait) }), true);

  async function login(req: IncomingMessage, res: ServerResponse, host: string) {
    const who = clientKey(req.socket.remoteAddress);
    if (tooMany(res, limiter.retryAfter(who))) return;
    if (!sameOrigin(req, host)) return html(res, 403, loginPage({ error: "This form was sent from another site. Open the login page directly." }));
    const { form, tooLarge, timedOut } = await readForm(req, 4096, opts.bodyIdleMs);
    if (timedOut) return html(res, 408, loginPage({ error: timedOut }), { connection: "close" });
    if (tooLarge) {
      limiter.fail(who);
      return html(res, 413, loginPage({ error: FORM_TOO_LARGE }), { connection: "close" });
    }
    // Looked at again after the form's wait: attempts sent together were all let through the first look.
    if (tooMany(res, limiter.retryAfter(who))) return;
    const given = form.get("password") ?? "";
    if (!timingSafeEqual(digest(given), expected)) {
      limiter.fail(who);
      return html(res, 401, loginPage({ error: "Wrong password.", next: form.get("next") ?? "/" }));
    }
    limiter.succeed(who);
    const token = signer.issue(Date.now(), randomBytes(16).toString("base64url"));
    const cookie = `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(lifetimeMs / 1000)}${secure}`;
    return redirect(res, safeNext(form.get("next")), { "set-cookie": cookie });
  }

  async function handle(req: IncomingMessage, res: ServerResponse, pathname: string, host: string): Promise<boolean> {
    if (pathname === "/login") {
      if (req.method === "POST") await login(req, res, host);
      else {
        const query = new URL(req.url ?? "/", "http://x").searchParams;
        html(res, 200, loginPage({ next: safeNext(query.get("next")), notice: query.get("reason") === SESSION_ENDED_REASON ? LOGIN_ENDED_NOTICE : undefined }));
      }
      return true;
    }
    if (pathname === "/logout" && req.method === "POST") {
      if (!sameOrigin(req, host)) {
        html(res, 403, loginPage({ error: "Log out from Baseboard's own page." }));
        return true;
      }
      // The browser drops the cookie; this proxy also refuses the token from now on. Another
      // proxy would still accept a copy until it expires: changing the secret ends them all.
      logOut(readCookie(req.headers.cookie, COOKIE));
      redirect(res, "/login", { "set-cookie": `${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure}` });
      return true;
    }
    if (isAuthenticated(req)) return false;
    redirect(res, `/login?next=${encodeURIComponent(safeNext(req.url))}`);
    return true;
  }

  return { isAuthenticated, handle };
}
