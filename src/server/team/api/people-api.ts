/**
 * The team layer's own endpoints (contract in ../README.md): /api/me and my sessions for
 * everyone signed in, /api/people for admins. Every answer is JSON in the one error shape;
 * nothing returned ever holds a password, a hash or a session's secret (sessions are named by
 * a prefix of their hash).
 */
import { trailRefusal } from "../store/why-unwritable";
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBody } from "../../../shared/errors";
import { API_SECURITY_HEADERS } from "../../proxy/headers";
import { sendJson } from "../../proxy/forward";
import { readJsonBody } from "../../proxy/json-body";
import type { Actor, IdentityMode, Resource } from "../contract";
import { decide, mayOn } from "../grants/permissions";
import { parseJsonText } from "../../../shared/json-text";
import { notJsonBody } from "../../json-request";
import { type Outcome, type PeopleAdmin, publicPerson } from "../people/people-admin";
import type { PeopleSessions } from "../sessions/people-sessions";
import { normalizeEmail, type SessionRow, type TeamStore } from "../store/team-store";
import { wrongPasswordLimiter } from "../sessions/password-limits";
import { checkPassword, hashPassword } from "../people/passwords";
import { passwordProblem } from "../people/common-passwords";

export interface TablesAndBuckets {
  /** `db/slug` */
  tables: string[];
  buckets: string[];
}

/**
 * Records a change to people before it is made and returns the step that records its outcome
 * before the answer (the audit trail's side; throws when the trail cannot be written).
 */
export type RecordPeopleChange = (what: { action: string; email?: string; detail: Record<string, unknown> }) => Promise<(status: number, message?: string) => Promise<void>>;

interface Ctx {
  /** The audit trail, when the proxy keeps one. */
  record?: RecordPeopleChange;
  req: IncomingMessage;
  res: ServerResponse;
  pathname: string;
  actor: Actor;
  catalog: () => Promise<TablesAndBuckets>;
  store: TeamStore;
  admin: PeopleAdmin;
  people: PeopleSessions;
  mode: IdentityMode;
  /** Records a wrong current password given to change one's own, counted as failed sign-ins are. */
  wrongPassword?: (email: string) => Promise<void>;
  /**
   * Until when this proxy refuses the account's sign-ins (too many wrong passwords), if it does:
   * the People page says so (review 54b #2: a locked account read "active").
   */
  lockedUntil?: (email: string) => number | undefined;
}

const json = (res: ServerResponse, status: number, body: unknown) => sendJson(res, status, body, API_SECURITY_HEADERS);
// A 503 (the trail cannot be written) says when to try again, as every other fail-closed 503 does.
const error = (res: ServerResponse, status: number, code: Parameters<typeof errorBody>[0], message: string) =>
  sendJson(res, status, errorBody(code, message), status === 503 ? { ...API_SECURITY_HEADERS, "retry-after": "5" } : API_SECURITY_HEADERS);
const CODES = { 400: "validation_error", 404: "not_found", 409: "conflict" } as const;

/** People bodies are small; past this a body is refused (413), read through the proxy's own reader. */
const BODY_LIMIT = 16 * 1024;
const BODY_LIMITS = { limit: BODY_LIMIT, idleMs: 10_000, totalMs: 30_000 };

type JsonRead = { ok: true; value: Record<string, unknown> } | { ok: false; status: number; message: string } | { ok: false; aborted: true };

async function readJson(req: IncomingMessage): Promise<JsonRead> {
  const read = await readJsonBody(req, BODY_LIMITS);
  if (read.kind === "aborted") return { ok: false, aborted: true };
  if (read.kind === "refused") return { ok: false, status: read.status, message: read.status === 413 ? `The body may have at most ${BODY_LIMIT} bytes.` : read.body.message };
  const problem = notJsonBody(req.headers, read.body);
  if (problem) {
    read.release();
    return { ok: false, status: 400, message: problem };
  }
  const parsed = parseJsonText(read.body.toString("utf8"));
  read.release();
  const v = parsed.ok ? (parsed.value ?? {}) : undefined;
  if (v && typeof v === "object" && !Array.isArray(v)) return { ok: true, value: v as Record<string, unknown> };
  return { ok: false, status: 400, message: "The body must be a JSON object." };
}

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** A body's fields for the trail, without anything secret (a password set or sent). */
function withoutSecrets(v: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(v).filter(([k]) => !/password|secret|token/i.test(k)));
}

/**
 * Records a people change that was refused (not an admin, or sent from another site), with what
 * it asked: its JSON body within the usual limit, never a password. `pathname` is /api/people/…
 */
export async function recordRefusedPeopleChange(req: IncomingMessage, method: string, pathname: string, record: RecordPeopleChange, message: string): Promise<void> {
  const read = method === "POST" || method === "PATCH" || method === "PUT" ? await readJson(req) : undefined;
  const asked = read?.ok ? withoutSecrets(read.value) : undefined;
  const email = pathname.split("/").filter(Boolean)[2] ?? (typeof asked?.email === "string" ? asked.email : undefined);
  await record({ action: "refused", email: email && safeDecode(email), detail: { method, path: pathname.slice(0, 500), ...(asked ? { asked } : {}) } })
    .then((finish) => finish(403, message))
    .catch(() => undefined);
}

const publicSession = (s: SessionRow, current: string | undefined) => ({
  id: s.id.slice(0, 16),
  createdAt: new Date(s.createdAt).toISOString(),
  lastSeenAt: new Date(s.lastSeenAt).toISOString(),
  address: s.address,
  userAgent: s.userAgent,
  current: s.id === current,
});

export async function describeMe(actor: Actor, mode: IdentityMode, catalog: TablesAndBuckets) {
  const tables: Record<string, ReturnType<typeof mayOn>> = {};
  const buckets: Record<string, ReturnType<typeof mayOn>> = {};
  for (const t of catalog.tables) {
    const may = mayOn(actor, `table:${t}` as Resource);
    if (may.read) tables[t] = may;
  }
  for (const b of catalog.buckets) {
    const may = mayOn(actor, `bucket:${b}` as Resource);
    if (may.read) buckets[b] = may;
  }
  return {
    email: actor.email,
    name: actor.name,
    role: actor.role,
    // A grant of none hides its table or bucket from the person, here too (issue 18).
    grants: actor.grants.filter((g) => g.level !== "none"),
    mode,
    may: {
      managePeople: decide(actor, "manage-people").allowed,
      readActivity: decide(actor, "read-activity").allowed,
      tables,
      buckets,
    },
  };
}

/**
 * The JSON body, holding only `allowed` properties (and at least one of them when `oneOf`):
 * otherwise a 400 naming what to fix (review 39a #1: `{"rol": "admin"}` was answered 200 with
 * nothing changed, and recorded as an update applied). Undefined once answered.
 */
async function bodyOf(req: IncomingMessage, res: ServerResponse, allowed: readonly string[], oneOf = false): Promise<Record<string, unknown> | undefined> {
  const b = await readJson(req);
  if (!b.ok) {
    // A client that went away has nobody to answer.
    if ("status" in b) error(res, b.status, b.status === 413 ? "payload_too_large" : b.status === 408 ? "request_timeout" : "validation_error", b.message);
    return undefined;
  }
  const unknown = Object.keys(b.value).filter((k) => !allowed.includes(k));
  const takes = allowed.map((k) => `"${k}"`).join(", ");
  if (unknown.length) error(res, 400, "validation_error", `Unknown property ${unknown.map((k) => `"${k.slice(0, 50)}"`).join(", ")} in the body: it takes ${takes}.`);
  else if (oneOf && !allowed.some((k) => b.value[k] !== undefined)) error(res, 400, "validation_error", `Nothing to change: give at least one of ${takes}.`);
  else return b.value;
  return undefined;
}

/** Wrong current passwords per person, as for signing in: a session alone does not let one guess on. */
const wrongCurrent = wrongPasswordLimiter();

/**
 * POST /api/me/password {current, password}: a person changes their own password (review 39b #3:
 * only an admin's reset could). The current one is checked, the new one must pass the rules for
 * any password; their other sessions end ("your password was changed"), this one goes on.
 */
async function changeOwnPassword(ctx: Ctx): Promise<void> {
  const { req, res, actor, store, people } = ctx;
  if (actor.kind !== "person") return void error(res, 404, "not_found", "Passwords exist only when people sign in (see the README, People and roles).");
  const b = await bodyOf(req, res, ["current", "password"]);
  if (!b) return;
  if (typeof b.current !== "string" || typeof b.password !== "string") return void error(res, 400, "validation_error", 'Give "current" (your password now) and "password" (the new one).');
  const person = await store.getPerson(actor.email);
  if (!person?.passwordHash) {
    return void error(res, 400, "validation_error", person?.sso ? "You sign in through single sign-on: there is no password here to change." : "You have no password yet: ask an admin for a link to set one.");
  }
  const wait = wrongCurrent.retryAfter(actor.email);
  if (wait > 0) {
    // Counted too, as sign-ins past their limit are: guessing with a session leaves a trace.
    await ctx.wrongPassword?.(actor.email);
    return void sendJson(res, 429, errorBody("too_many_requests", `Too many wrong current passwords. Try again in ${Math.ceil(wait / 60)} min.`), { ...API_SECURITY_HEADERS, "retry-after": String(wait) });
  }
  wrongCurrent.fail(actor.email);
  if (!(await checkPassword(person.passwordHash, b.current))) {
    await ctx.wrongPassword?.(actor.email);
    return void error(res, 400, "validation_error", "Your current password is not right; nothing was changed.");
  }
  wrongCurrent.succeed(actor.email);
  const problem = passwordProblem(b.password, actor.email);
  if (problem) return void error(res, 400, "validation_error", problem);
  if (b.password === b.current) return void error(res, 400, "validation_error", "The new password is the one you have now: choose another.");
  let finish: ((status: number, message?: string) => Promise<void>) | undefined;
  try {
    finish = await ctx.record?.({ action: "change-password", email: actor.email, detail: {} });
  } catch (e) {
    return void error(res, 503, "unavailable", trailRefusal(e));
  }
  await store.updatePerson(actor.email, { passwordHash: await hashPassword(b.password) });
  // The others end, told why; this one goes on (the person is here, and just proved it).
  const current = people.idOf(req);
  let ended = 0;
  for (const s of await store.listSessions(actor.email)) {
    if (s.id !== current && (await store.deleteSession(actor.email, s.id, { reason: "password-set", at: Date.now() }))) ended++;
  }
  await people.refresh();
  await finish?.(200);
  json(res, 200, { changed: true, otherSessionsEnded: ended });
}

export async function handlePeopleApi(ctx: Ctx): Promise<boolean> {
  const { req, res, actor, people, store, admin } = ctx;
  const method = req.method ?? "GET";
  const parts = ctx.pathname.split("/").slice(2).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return "\0";
    }
  }); // ["me", …] or ["people", …]
  const answer = <T>(o: Outcome<T>, ok: (v: T) => unknown, status = 200) => {
    if (o.ok) return json(res, status, ok(o.value));
    return error(res, o.status, CODES[o.status], o.message);
  };

  if (parts[0] === "me") {
    if (parts.length === 1 && method === "GET") {
      json(res, 200, await describeMe(actor, ctx.mode, await ctx.catalog()));
      return true;
    }
    if (parts[1] === "password" && parts.length === 2 && method === "POST") {
      await changeOwnPassword(ctx);
      return true;
    }
    if (parts[1] !== "sessions" || parts.length > 3) return false;
    if (actor.kind !== "person") {
      if (method === "GET" && parts.length === 2) json(res, 200, { items: [] });
      else error(res, 404, "not_found", "Sessions exist only when people sign in (see the README, People and roles).");
      return true;
    }
    const current = people.idOf(req);
    if (method === "GET" && parts.length === 2) {
      json(res, 200, { items: (await store.listSessions(actor.email)).map((s) => publicSession(s, current)) });
    } else if (method === "DELETE" && parts.length === 2) {
      // This one is told it asked (review 39a #4: "from another of your sessions"); the others that it did.
      const at = Date.now();
      const own = current !== undefined && (await store.deleteSession(actor.email, current, { reason: "signed-out-everywhere", at })) ? 1 : 0;
      const n = own + (await store.deleteSessionsOf(actor.email, { reason: "ended-by-self", at }));
      await people.refresh();
      json(res, 200, { ended: n });
    } else if (method === "DELETE" && parts.length === 3) {
      const s = (await store.listSessions(actor.email)).find((x) => x.id.startsWith(parts[2]) && parts[2].length === 16);
      if (!s || !(await store.deleteSession(actor.email, s.id, { reason: "ended-by-self", at: Date.now() }))) error(res, 404, "not_found", "No such session of yours (it may have ended already).");
      else {
        await people.refresh();
        json(res, 200, { ended: 1 });
      }
    } else return false;
    return true;
  }

  if (parts[0] !== "people") return false;
  const may = decide(actor, "manage-people");
  if (!may.allowed) {
    // A change refused is recorded like any (a people change whose outcome is "refused"); a read is no change.
    if (method !== "GET" && method !== "HEAD" && ctx.record) await recordRefusedPeopleChange(req, method, ctx.pathname, ctx.record, may.message);
    error(res, 403, "forbidden", may.message);
    return true;
  }
  const [, named, sub, extra] = parts;
  // As the store keeps it (trimmed, lower case): the self-guard below compared the raw segment, so
  // "%20admin@ex.com" passed it and changed the admin's own row (review 34a #6).
  const email = named && normalizeEmail(named);
  const body = (allowed: readonly string[], oneOf = false) => bodyOf(req, res, allowed, oneOf);
  const after = async () => people.refresh();
  // A table taken away from an admin stays away until another admin gives it back (review 48a #2).
  const ownGrants = () => error(res, 400, "validation_error", "You cannot change your own grants; ask another admin.");
  // Fail closed, as for data: a change the trail cannot record is not made.
  let finish: ((status: number, message?: string) => Promise<void>) | undefined;
  const begin = async (action: string, detail: Record<string, unknown> = {}): Promise<boolean> => {
    if (!ctx.record) return true;
    try {
      finish = await ctx.record({ action, email: email ?? (typeof detail.email === "string" ? detail.email : undefined), detail });
      return true;
    } catch (e) {
      error(res, 503, "unavailable", trailRefusal(e));
      return false;
    }
  };
  /** Records how a change ended, then answers. */
  const ended = async <T>(o: Outcome<T>, ok: (v: T) => unknown, status = 200) => {
    await finish?.(o.ok ? status : o.status, o.ok ? undefined : o.message);
    answer(o, ok, status);
  };

  // A person as the People API shows them: with `lockedUntil` (an instant) while wrong passwords lock them out.
  const shown = (p: Parameters<typeof publicPerson>[0]) => {
    const until = ctx.lockedUntil?.(p.email);
    return { ...publicPerson(p), ...(until ? { lockedUntil: new Date(until).toISOString() } : {}) };
  };
  if (parts.length === 1 && method === "GET") {
    json(res, 200, { items: (await admin.list()).map(shown) });
  } else if (parts.length === 1 && method === "POST") {
    const b = await body(["email", "name", "role"]);
    if (!b) return true;
    if (b.role !== undefined && b.role !== "admin" && people.peopleCount() === 0) {
      // Sign-in turns on with the first person: as a viewer or editor they would be the only one,
      // and nobody could manage people from the app again (review 47b #3).
      error(res, 400, "validation_error", "The first person must be an admin: once they exist everyone signs in, and only an admin can add the others. Add yourself as admin first.");
      return true;
    }
    if (!(await begin("add", { email: b.email, name: b.name, role: b.role }))) return true;
    const added = await admin.add({ email: b.email, name: b.name, role: b.role });
    if (!added.ok) return await ended(added, () => null), true;
    const inv = await admin.invite(added.value.email);
    await after();
    await ended(inv, (v) => ({ person: publicPerson(v.person), inviteUrl: `/invite/${v.token}`, inviteExpiresAt: new Date(v.expiresAt).toISOString() }), 201);
  } else if (parts.length === 2 && method === "GET") {
    const p = await admin.get(email);
    if (!p) error(res, 404, "not_found", `Nobody signs in as ${email}.`);
    else json(res, 200, shown(p));
  } else if (parts.length === 2 && method === "PATCH") {
    const b = await body(["name", "role", "disabled"], true);
    if (!b) return true;
    if (email === actor.email && (b.role !== undefined && b.role !== "admin" || b.disabled === true)) {
      error(res, 400, "validation_error", "You cannot take away your own admin role or disable yourself; ask another admin.");
      return true;
    }
    if (!(await begin("update", { name: b.name, role: b.role, disabled: b.disabled }))) return true;
    const updated = await admin.update(email, { name: b.name, role: b.role, disabled: b.disabled });
    await after();
    await ended(updated, publicPerson);
  } else if (sub === "grants" && parts.length === 3 && method === "PUT") {
    const b = await body(["resource", "level"]);
    if (!b) return true;
    if (email === actor.email) return ownGrants(), true;
    if (!(await begin("grant", { resource: b.resource, level: b.level }))) return true;
    const granted = await admin.grant(email, b.resource, b.level, await ctx.catalog().catch(() => undefined));
    await after();
    await ended(granted, publicPerson);
  } else if (sub === "grants" && parts.length === 4 && method === "DELETE" && email === actor.email) {
    ownGrants();
  } else if (sub === "grants" && parts.length === 4 && method === "DELETE") {
    if (!(await begin("revoke-grant", { resource: extra }))) return true;
    const revoked = await admin.revokeGrant(email, extra);
    await after();
    await ended(revoked, publicPerson);
  } else if (sub === "invite" && parts.length === 3 && method === "POST") {
    // For someone with a password, a reset: it stops working and their sessions end at once.
    const resets = (await admin.get(email))?.passwordHash != null;
    if (!(await begin(resets ? "reset-password" : "invite", resets ? { invite: true } : {}))) return true;
    const inv = await admin.invite(email);
    await after();
    await ended(inv, (v) => ({ person: publicPerson(v.person), inviteUrl: `/invite/${v.token}`, inviteExpiresAt: new Date(v.expiresAt).toISOString(), reset: v.reset }));
  } else if (sub === "sessions" && parts.length === 3 && method === "GET") {
    // Nobody by that email is a 404, as for their other paths (review 39a #10: an empty list).
    if (!(await admin.get(email))) error(res, 404, "not_found", `Nobody signs in as ${email}.`);
    else json(res, 200, { items: (await store.listSessions(normalizeEmail(email))).map((s) => publicSession(s, people.idOf(req))) });
  } else if (sub === "sessions" && parts.length === 3 && method === "DELETE") {
    if (!(await begin("end-sessions"))) return true;
    // Nobody by that email is a 404 (review 46a #7: "ended 0" told an admin a typo had worked).
    if (!(await admin.get(email))) return await ended({ ok: false, status: 404, message: `Nobody signs in as ${email}.` }, () => null), true;
    const n = await store.deleteSessionsOf(normalizeEmail(email), { reason: "ended-by-admin", at: Date.now() });
    await after();
    await ended({ ok: true, value: n }, (v) => ({ ended: v }));
  } else if (sub === "sessions" && parts.length === 4 && method === "DELETE") {
    if (!(await begin("end-session", { session: extra }))) return true;
    const s = (await store.listSessions(normalizeEmail(email))).find((x) => x.id.startsWith(extra) && extra.length === 16);
    const gone = !!s && (await store.deleteSession(s.email, s.id, { reason: "ended-by-admin", at: Date.now() }));
    await after();
    await ended(gone ? { ok: true, value: 1 } : { ok: false, status: 404, message: "No such session (it may have ended already)." }, (v) => ({ ended: v }));
  } else {
    error(res, 404, "not_found", `No endpoint ${method} ${ctx.pathname.slice(0, 200)}.`);
  }
  return true;
}
