/**
 * The one small interface the proxy's forward path asks: "who is this" (identify), "may they
 * do this" (grants/permissions.ts), and the pages and endpoints of the team layer itself
 * (sign-in, invites, /api/me, /api/people). The proxy knows nothing of argon2 or sessions.
 *
 * Identity modes (README "People and roles"): once one person exists, everyone signs in as
 * themselves; before that, BASEBOARD_PASSWORD is one shared admin, and with neither, loopback
 * is today's single user. The mode follows the store: the first `npm run people -- add` turns
 * people on for a running proxy within a second.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBody } from "../../shared/errors";
import { SESSION_ENDED_REASON } from "../../shared/meta";
import { PAGE_SECURITY_HEADERS } from "../proxy/headers";
import { clientKey } from "../proxy/login-limiter";
import type { WrongPasswordAt } from "./audit/auditor";
import { SIGN_IN_ADDRESS_LIMIT, SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS, wrongPasswordLimiter, wrongSignInsFromAddress } from "./sessions/password-limits";

import { formFromOwnPage } from "../proxy/guard";
import { FORM_TOO_LARGE, readForm } from "../proxy/read-form";
import { readCookie, safeNext, type SessionGate } from "../proxy/session";
import { SHARED_PASSWORD, SINGLE_USER, type Actor, type IdentityMode } from "./contract";
import { handlePeopleApi, type RecordPeopleChange, type TablesAndBuckets } from "./api/people-api";
import { checkPassword } from "./people/passwords";
import { createPeopleAdmin, hashToken } from "./people/people-admin";
import { passwordProblem } from "./people/common-passwords";
import { messagePage, SESSION_ENDED_NOTICE, setPasswordPage, signInPage } from "./sessions/pages";
import { sessionEndText } from "./sessions/session-end-text";
import { ABSOLUTE_MS, createPeopleSessions, PERSON_COOKIE, type PeopleSessions } from "./sessions/people-sessions";
import type { SessionEnd, TeamStore } from "./store/team-store";
import { oidcMisconfigured, type OidcSignIn } from "./sso/oidc-sign-in";
import { normalizeEmail } from "./store/team-store";
import { whyUnwritable } from "./store/why-unwritable";

/** The sign-in limits' window, as the messages say it. */
const WINDOW_MIN = SIGN_IN_WINDOW_MS / 60_000;

/**
 * A wrong password, an unknown email and a disabled account get the same words (nothing to tell
 * which); what to do when an admin reset the password is said to all (review 37b #1: a person
 * whose password was reset was left retrying the old one).
 */
export const WRONG_PASSWORD =
  "That email and password do not match an account that may sign in. If an admin has just reset your password or ended your sessions, the old password may no longer work: ask them for the link to set a new one.";


export interface TeamGate {
  mode(): IdentityMode;
  identify(req: IncomingMessage): Promise<Actor | undefined>;
  /** For a request `identify` found nobody behind: why its session ended, when that is kept. */
  whyEnded(req: IncomingMessage): Promise<string | undefined>;
  /** Sign-in, sign-out, invites; and app pages without a session are sent to /login. True when it answered. */
  handlePage(req: IncomingMessage, res: ServerResponse, pathname: string, host: string): Promise<boolean>;
  /** /api/me… and /api/people… (the caller has checked Host, CSRF and that `actor` exists). True when it answered. */
  handleApi(req: IncomingMessage, res: ServerResponse, pathname: string, actor: Actor, catalog: () => Promise<TablesAndBuckets>, record?: RecordPeopleChange): Promise<boolean>;
  /** Files opened from other sites go through without the key only when nobody signs in. */
  close(): Promise<void>;
  readonly people: PeopleSessions;
  readonly store: TeamStore;
}

export interface TeamOptions {
  store: TeamStore;
  /** The BASEBOARD_PASSWORD gate, when that is set. */
  passwordGate?: SessionGate;
  publicOrigin?: string;
  /** Single sign-on, when BASEBOARD_OIDC_ISSUER is set. */
  oidc?: OidcSignIn;
  pollMs?: number;
  log?: (line: string) => void;
  /** The audit trail's record of a wrong password (per account and address): signing in, or changing one's own. */
  onSignInFailed?: (email: string, address: string, endpoint?: WrongPasswordAt) => Promise<void>;
  /**
   * Records a password set through an invite or reset link, before it is set (review 57a #7: none
   * was recorded); gives back how to record its outcome. Throws when the log cannot take it.
   */
  onPasswordSet?: (email: string, address: string, link: "invite" | "reset") => Promise<(status: number, message?: string) => Promise<void>>;
  /** A form that sends nothing for this long is answered 408 (BASEBOARD_BODY_IDLE_TIMEOUT_MS). */
  bodyIdleMs?: number;
}

/**
 * The secret of the session this browser signed out of: its other tabs are told when, as the
 * store kept it (review 46a #8: the time itself in the cookie showed whatever it was set to).
 */
const SIGNED_OUT_COOKIE = "bb_out";

/** Binds a single sign-on to the browser that started it (oidc-sign-in.ts). */
const OIDC_COOKIE = "bb_oidc";

/** A sign-in or set-password form is a few hundred bytes; past this it is refused (413). */
const FORM_LIMIT = 8192;


export async function createTeamGate(opts: TeamOptions): Promise<TeamGate> {
  const { store } = opts;
  const people = await createPeopleSessions(store, { pollMs: opts.pollMs, onError: (e) => opts.log?.(`people store: ${e.message}`) });
  const admin = createPeopleAdmin(store);
  const byAddress = wrongSignInsFromAddress();
  const byAccount = wrongPasswordLimiter();
  const secure = opts.publicOrigin?.startsWith("https:") ? "; Secure" : "";
  /**
   * The session cookie, and beside it the browser's mark that it signed out (when): signing out
   * clears the session cookie for every tab, so the others' next request carries none, and was
   * told only "sign in first" (review 39a #6). Signing in clears the mark.
   */
  const cookie = (value: string, maxAge: number, endedSecret?: string) => [
    `${PERSON_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`,
    endedSecret
      ? `${SIGNED_OUT_COOKIE}=${endedSecret}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(ABSOLUTE_MS / 1000)}${secure}`
      : `${SIGNED_OUT_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure}`,
  ];
  /**
   * Why this request's session ended, in words, when that is known (kept with the session, or the
   * browser's sign-out mark), and whose it was, for the sign-in page to fill in (review 39b #5).
   */
  async function endOf(req: IncomingMessage): Promise<{ text: string; email?: string } | undefined> {
    if (mode() !== "people") return undefined;
    const mark = readCookie(req.headers.cookie, SIGNED_OUT_COOKIE);
    const end: SessionEnd | undefined = readCookie(req.headers.cookie, PERSON_COOKIE)
      ? await people.whyEnded(req).catch(() => undefined)
      : mark
        ? await people.whyEndedBy(mark).then((e) => (e?.reason === "signed-out" ? e : undefined), () => undefined)
        : undefined;
    if (!end) return undefined;
    const person = end.email ? await store.getPerson(end.email).catch(() => undefined) : undefined;
    return { text: sessionEndText(end, person && { disabled: person.disabled, hasPassword: person.passwordHash !== null }), email: end.email || undefined };
  }
  const whyEnded = async (req: IncomingMessage) => (await endOf(req))?.text;
  // Lax: the provider sends the browser back with a top-level GET from its own site.
  const oidcCookie = (value: string, maxAge: number) => `${OIDC_COOKIE}=${value}; Path=/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;

  // With single sign-on configured everyone signs in, even before the first person exists.
  const mode = (): IdentityMode => (people.peopleCount() > 0 || opts.oidc ? "people" : opts.passwordGate ? "password" : "single-user");
  const sso = opts.oidc ? { label: opts.oidc.label } : undefined;

  const html = (res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...PAGE_SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...extra });
    res.end(body);
  };
  const redirect = (res: ServerResponse, location: string, extra: Record<string, string | string[]> = {}) => {
    res.writeHead(303, { location, "cache-control": "no-store", ...extra });
    res.end();
  };
  const sameOrigin = (req: IncomingMessage, host: string) => formFromOwnPage(req.headers, host, opts.publicOrigin);

  async function signIn(req: IncomingMessage, res: ServerResponse, host: string) {
    if (!sameOrigin(req, host)) return html(res, 403, signInPage({ error: "This form was sent from another site. Open the sign-in page directly.", sso }));
    const address = clientKey(req.socket.remoteAddress);
    const { form, tooLarge, timedOut } = await readForm(req, FORM_LIMIT, opts.bodyIdleMs);
    if (timedOut) return html(res, 408, signInPage({ error: timedOut, sso }), { connection: "close" });
    if (tooLarge) {
      // Counted against the address (no account can be named by it) and recorded like any miss.
      byAddress.fail(address);
      await opts.onSignInFailed?.("(form too large)", address);
      return html(res, 413, signInPage({ error: FORM_TOO_LARGE, sso }), { connection: "close" });
    }
    const email = normalizeEmail(form.get("email") ?? "").slice(0, 254);
    const next = safeNext(form.get("next"));
    const accountWait = email ? byAccount.retryAfter(email) : 0;
    const addressWait = byAddress.retryAfter(address);
    const wait = Math.max(accountWait, addressWait);
    if (wait > 0) {
      // Counted too (review 39a #9: a guessing run past the limit left no trace after it).
      await opts.onSignInFailed?.(email || "(no email)", address);
      // Which limit, said: the account's is this person's own; the address's is everyone's there
      // (review 52b #2: an admin with no wrong attempt was told she had made too many).
      const error =
        accountWait > 0
          ? `Too many wrong passwords for this account (${SIGN_IN_LIMIT} in ${WINDOW_MIN} minutes). Try again in ${Math.ceil(wait / 60)} min, or ask an admin to reset your password.`
          : `Too many wrong sign-ins from this network address (${SIGN_IN_ADDRESS_LIMIT} in ${WINDOW_MIN} minutes, across accounts). Try again in ${Math.ceil(wait / 60)} min.`;
      return html(res, 429, signInPage({ error, next, email, sso }), { "retry-after": String(wait) });
    }
    // Counted as wrong from now, before the slow check: attempts in flight count (review 34a #2).
    byAddress.fail(address, Date.now(), email);
    if (email) byAccount.fail(email);
    // No one's email holds a control character or a lone surrogate half (PostgreSQL could not
    // even be asked about a NUL: a 500): such a try is a plain miss.
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    const person = email && !/[\0-\x1f\p{Cs}]/u.test(email) ? await store.getPerson(email) : undefined;
    // Unknown emails check a dummy hash: the answer takes the same time either way.
    const good = await checkPassword(person?.passwordHash, form.get("password") ?? "");
    if (!person || !good || person.disabled) {
      await opts.onSignInFailed?.(email, address);
      // Said before it happens (any email alike, so it tells nothing of who has an account).
      const left = email ? byAccount.left(email) : Infinity;
      const last =
        left === 1
          ? ` One more wrong password locks this account for ${WINDOW_MIN} minutes.`
          : left === 0
            ? // The one that locked it says so (review 53b #7: only the next try was told).
              ` That was wrong password ${SIGN_IN_LIMIT} in ${WINDOW_MIN} minutes: this account is locked for ${WINDOW_MIN} minutes, or until an admin resets its password.`
            : "";
      return html(res, 401, signInPage({ error: `${WRONG_PASSWORD}${last}`, next, email, sso }));
    }
    // Right: the account starts afresh, and the address forgets its misses at this account only
    // (not those at others: review 34a #5).
    byAddress.succeed(address, email);
    byAccount.succeed(email);
    const secret = await people.start(person, req);
    return redirect(res, next, { "set-cookie": cookie(secret, Math.floor(ABSOLUTE_MS / 1000)) });
  }

  async function invite(req: IncomingMessage, res: ServerResponse, host: string, token: string) {
    const tokenHash = hashToken(token);
    const email = await store.peekInvite(tokenHash, Date.now());
    if (!email) return html(res, 404, messagePage("This link was used already, or has expired", "Invite links work once, for 7 days. If you set your password with it, sign in; else ask an admin for a new one."));
    const action = `/invite/${encodeURIComponent(token)}`;
    if (req.method !== "POST") return html(res, 200, setPasswordPage({ email, action }));
    if (!sameOrigin(req, host)) return html(res, 403, setPasswordPage({ email, action, error: "This form was sent from another site." }));
    const { form, tooLarge, timedOut } = await readForm(req, FORM_LIMIT, opts.bodyIdleMs);
    if (timedOut) return html(res, 408, setPasswordPage({ email, action, error: timedOut }), { connection: "close" });
    if (tooLarge) return html(res, 413, setPasswordPage({ email, action, error: FORM_TOO_LARGE }), { connection: "close" });
    const password = form.get("password") ?? "";
    if (password !== (form.get("confirm") ?? "")) return html(res, 400, setPasswordPage({ email, action, error: "The two passwords differ." }));
    const problem = passwordProblem(password, email);
    if (problem) return html(res, 400, setPasswordPage({ email, action, error: problem }));
    // Recorded before it is made, as every change to people is (in words: "set their password
    // with an invite link", or a reset link when they had one before).
    const had = (await store.getPerson(email))?.passwordHash;
    let recorded: ((status: number, message?: string) => Promise<void>) | undefined;
    try {
      recorded = await opts.onPasswordSet?.(email, clientKey(req.socket.remoteAddress), had ? "reset" : "invite");
    } catch {
      return html(res, 503, setPasswordPage({ email, action, error: "The activity log cannot be written right now, so the password was not set; the link still works. Try again in a moment." }));
    }
    // Taken only now, so a refused password leaves the link usable.
    if ((await store.takeInvite(tokenHash, Date.now())) !== email) {
      await recorded?.(404, "The link was used already, or has expired.");
      return html(res, 404, messagePage("This link was used already, or has expired", "If you set your password with it, sign in; else ask an admin for a new one."));
    }
    const set = await admin.setPassword(email, password);
    await recorded?.(set.ok ? 200 : 400, set.ok ? undefined : set.message);
    if (!set.ok) return html(res, 400, setPasswordPage({ email, action, error: set.message }));
    // A new password ends the wait the old one's wrong tries started (an admin's reset is the way out of a lock).
    byAccount.succeed(email);
    if (set.value.disabled) return html(res, 403, messagePage("Account disabled", "Your password is set, but an admin has disabled this account."));
    const secret = await people.start(set.value, req);
    return redirect(res, "/", { "set-cookie": cookie(secret, Math.floor(ABSOLUTE_MS / 1000)) });
  }

  return {
    mode,
    people,
    store,
    async identify(req) {
      switch (mode()) {
        case "people":
          return people.actorOf(req);
        case "password":
          return opts.passwordGate?.isAuthenticated(req) ? SHARED_PASSWORD : undefined;
        default:
          return SINGLE_USER;
      }
    },
    whyEnded,
    async handlePage(req, res, pathname, host) {
      const m = mode();
      if (m === "password") return (opts.passwordGate as SessionGate).handle(req, res, pathname, host);
      if (pathname.startsWith("/invite/")) {
        await invite(req, res, host, decodeURIComponent(pathname.slice("/invite/".length)));
        return true;
      }
      if (m === "single-user") return false;
      if (pathname === "/login") {
        if (req.method === "POST") {
          try {
            await signIn(req, res, host);
          } catch (e) {
            // Baseboard's own store cannot be reached or written: the form again, saying so (not a JSON body).
            const why = whyUnwritable(e);
            if (!why || res.headersSent) throw e;
            html(res, 503, signInPage({ error: `Signing in is not possible right now: Baseboard's own store (people and sessions) ${why === "its database cannot be reached" ? "cannot be reached" : `cannot be written (${why})`}. Try again in a moment.`, sso }), { "retry-after": "5" });
          }
        }
        else {
          const query = new URL(req.url ?? "/", "http://x").searchParams;
          // Why, when the cookie it still sends names a session that ended for a reason kept; and
          // whose, filled in (the focus then starts in Password).
          const ended = query.get("reason") === SESSION_ENDED_REASON ? await endOf(req) : undefined;
          // A link meant for single sign-on where none is set up: said, not left to guess.
          const noSso = !sso && (query.get("sso") === "none" || query.get("next")?.startsWith("/auth/oidc")) ? "Single sign-on is not set up on this Baseboard: sign in with your email and password, or ask an admin." : undefined;
          const notice = query.get("reason") === SESSION_ENDED_REASON ? (ended?.text ?? SESSION_ENDED_NOTICE) : noSso;
          html(res, 200, signInPage({ next: safeNext(query.get("next")), notice, email: ended?.email, sso }));
        }
        return true;
      }
      if (opts.oidc && pathname === "/auth/oidc/start") {
        const origin = opts.publicOrigin ?? `http://${host}`;
        try {
          const started = await opts.oidc.start(safeNext(new URL(req.url ?? "/", "http://x").searchParams.get("next")), `${origin}/auth/oidc/callback`);
          redirect(res, started.url, { "set-cookie": oidcCookie(started.binding, 600) });
        } catch (e) {
          // A wrong issuer is not mended by trying again (it was said to be unreachable: review 29a #8).
          const wrong = oidcMisconfigured(e);
          opts.log?.(wrong ? `single sign-on is not set up right: ${wrong}` : `single sign-on: the provider could not be reached: ${(e as Error).message}`);
          html(res, 502, signInPage({ error: wrong ? "Single sign-on is not set up right on this server (its provider address does not lead to an OpenID provider): tell an admin, and sign in with a password meanwhile." : "The single sign-on provider could not be reached. Try again in a moment, or sign in with a password.", sso }));
        }
        return true;
      }
      if (opts.oidc && pathname === "/auth/oidc/callback") {
        const outcome = await opts.oidc.finish(req, new URL(req.url ?? "/", `http://${host}`), readCookie(req.headers.cookie, OIDC_COOKIE));
        // Refused after the provider answered (an answer that fails its checks, a domain not
        // allowed, no verified email, a disabled account): a failed sign-in, counted as a wrong
        // password is (review 53a #2: someone tried to be an admin through the provider, unsaid).
        if (!outcome.ok && (outcome.status === 401 || outcome.status === 403)) await opts.onSignInFailed?.(outcome.email ?? outcome.unnamed ?? "(single sign-on)", clientKey(req.socket.remoteAddress), "GET /auth/oidc/callback");
        if (!outcome.ok) {
          html(res, outcome.status, signInPage({ error: outcome.message, sso }));
          return true;
        }
        const secret = await people.start(outcome.person, req);
        await people.refresh();
        redirect(res, outcome.next, { "set-cookie": [...cookie(secret, Math.floor(ABSOLUTE_MS / 1000)), oidcCookie("", 0)] });
        return true;
      }
      if (pathname === "/logout" && req.method === "POST") {
        if (!sameOrigin(req, host)) {
          html(res, 403, signInPage({ error: "Sign out from Baseboard's own page." }));
          return true;
        }
        await people.end(req);
        redirect(res, "/login", { "set-cookie": cookie("", 0, readCookie(req.headers.cookie, PERSON_COOKIE)) });
        return true;
      }
      if (await people.actorOf(req)) return false;
      // A cookie that no longer opens a session: it ended (elsewhere, by an admin, or idle).
      const ended = readCookie(req.headers.cookie, PERSON_COOKIE) ? `&reason=${SESSION_ENDED_REASON}` : "";
      // A link meant for single sign-on where none is set up: to the sign-in page, which says so
      // (review 51b #2: the path was dropped as where to go after, and with it the notice).
      const noSso = !opts.oidc && /^\/auth\/oidc(\/|$)/.test(pathname);
      redirect(res, noSso ? `/login?sso=none${ended}` : `/login?next=${encodeURIComponent(safeNext(req.url))}${ended}`);
      return true;
    },
    handleApi: (req, res, pathname, actor, catalog, record) =>
      handlePeopleApi({ req, res, pathname, actor, catalog, store, admin, people, mode: mode(), record, wrongPassword: async (email) => opts.onSignInFailed?.(email, clientKey(req.socket.remoteAddress), "POST /api/me/password"), lockedUntil: (email) => {
        const wait = byAccount.retryAfter(email);
        return wait > 0 ? Date.now() + wait * 1000 : undefined;
      } }),
    async close() {
      people.close();
      await store.close();
    },
  };
}

export const forbidden = (message: string) => errorBody("forbidden", message);
