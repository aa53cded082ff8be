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
import type { Actor, IdentityMode, Resource } from "../contract";
import { decide, mayOn } from "../grants/permissions";
import { type Outcome, type PeopleAdmin, publicPerson } from "../people/people-admin";
import type { PeopleSessions } from "../sessions/people-sessions";
import type { SessionRow, TeamStore } from "../store/team-store";

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
}

const json = (res: ServerResponse, status: number, body: unknown) => sendJson(res, status, body, API_SECURITY_HEADERS);
const error = (res: ServerResponse, status: number, code: Parameters<typeof errorBody>[0], message: string) => json(res, status, errorBody(code, message));
const CODES = { 400: "validation_error", 404: "not_found", 409: "conflict" } as const;

async function readJson(req: IncomingMessage, limit = 16 * 1024): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; message: string }> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return { ok: false, message: `The body may have at most ${limit} bytes.` };
    chunks.push(chunk as Buffer);
  }
  try {
    const v = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    if (v && typeof v === "object" && !Array.isArray(v)) return { ok: true, value: v as Record<string, unknown> };
  } catch {
    /* below */
  }
  return { ok: false, message: "The body must be a JSON object." };
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
    grants: actor.grants,
    mode,
    may: {
      managePeople: decide(actor, "manage-people").allowed,
      readActivity: decide(actor, "read-activity").allowed,
      tables,
      buckets,
    },
  };
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
      const n = await store.deleteSessionsOf(actor.email);
      await people.refresh();
      json(res, 200, { ended: n });
    } else if (method === "DELETE" && parts.length === 3) {
      const s = (await store.listSessions(actor.email)).find((x) => x.id.startsWith(parts[2]) && parts[2].length === 16);
      if (!s || !(await store.deleteSession(actor.email, s.id))) error(res, 404, "not_found", "No such session of yours (it may have ended already).");
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
    if (method !== "GET" && method !== "HEAD" && ctx.record) {
      await ctx
        .record({ action: "refused", email: parts[1], detail: { method, path: ctx.pathname.slice(0, 500) } })
        .then((finish) => finish(403, may.message))
        .catch(() => undefined);
    }
    error(res, 403, "forbidden", may.message);
    return true;
  }
  const [, email, sub, extra] = parts;
  const body = async () => {
    const b = await readJson(req);
    if (!b.ok) error(res, 400, "validation_error", b.message);
    return b.ok ? b.value : undefined;
  };
  const after = async () => people.refresh();
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

  if (parts.length === 1 && method === "GET") {
    json(res, 200, { items: (await admin.list()).map(publicPerson) });
  } else if (parts.length === 1 && method === "POST") {
    const b = await body();
    if (!b) return true;
    if (!(await begin("add", { email: b.email, name: b.name, role: b.role }))) return true;
    const added = await admin.add({ email: b.email, name: b.name, role: b.role });
    if (!added.ok) return await ended(added, () => null), true;
    const inv = await admin.invite(added.value.email);
    await after();
    await ended(inv, (v) => ({ person: publicPerson(v.person), inviteUrl: `/invite/${v.token}` }), 201);
  } else if (parts.length === 2 && method === "GET") {
    const p = await admin.get(email);
    if (!p) error(res, 404, "not_found", `Nobody signs in as ${email}.`);
    else json(res, 200, publicPerson(p));
  } else if (parts.length === 2 && method === "PATCH") {
    const b = await body();
    if (!b) return true;
    if (email.toLowerCase() === actor.email && (b.role !== undefined && b.role !== "admin" || b.disabled === true)) {
      error(res, 400, "validation_error", "You cannot take away your own admin role or disable yourself; ask another admin.");
      return true;
    }
    if (!(await begin("update", { name: b.name, role: b.role, disabled: b.disabled }))) return true;
    const updated = await admin.update(email, { name: b.name, role: b.role, disabled: b.disabled });
    await after();
    await ended(updated, publicPerson);
  } else if (sub === "grants" && parts.length === 3 && method === "PUT") {
    const b = await body();
    if (!b) return true;
    if (!(await begin("grant", { resource: b.resource, level: b.level }))) return true;
    const granted = await admin.grant(email, b.resource, b.level);
    await after();
    await ended(granted, publicPerson);
  } else if (sub === "grants" && parts.length === 4 && method === "DELETE") {
    if (!(await begin("revoke-grant", { resource: extra }))) return true;
    const revoked = await admin.revokeGrant(email, extra);
    await after();
    await ended(revoked, publicPerson);
  } else if (sub === "invite" && parts.length === 3 && method === "POST") {
    if (!(await begin("invite"))) return true;
    await ended(await admin.invite(email), (v) => ({ person: publicPerson(v.person), inviteUrl: `/invite/${v.token}` }));
  } else if (sub === "sessions" && parts.length === 3 && method === "GET") {
    json(res, 200, { items: (await store.listSessions(email.toLowerCase())).map((s) => publicSession(s, people.idOf(req))) });
  } else if (sub === "sessions" && parts.length === 3 && method === "DELETE") {
    if (!(await begin("end-sessions"))) return true;
    const n = await store.deleteSessionsOf(email.toLowerCase());
    await after();
    await ended({ ok: true, value: n }, (v) => ({ ended: v }));
  } else if (sub === "sessions" && parts.length === 4 && method === "DELETE") {
    if (!(await begin("end-session", { session: extra }))) return true;
    const s = (await store.listSessions(email.toLowerCase())).find((x) => x.id.startsWith(extra) && extra.length === 16);
    const gone = !!s && (await store.deleteSession(s.email, s.id));
    await after();
    await ended(gone ? { ok: true, value: 1 } : { ok: false, status: 404, message: "No such session (it may have ended already)." }, (v) => ({ ended: v }));
  } else {
    error(res, 404, "not_found", `No endpoint ${method} ${ctx.pathname.slice(0, 200)}.`);
  }
  return true;
}
