/**
 * The team store on PostgreSQL (BASEBOARD_DATABASE_URL): the same tables as the embedded one,
 * under a `bb_team_` prefix, so several proxies share people, grants, sessions and the
 * revision counter they poll to see each other's revocations.
 */
import pg from "pg";
import { inTransaction } from "./pg-transaction";
import type { GrantLevel, Resource, Role } from "../contract";
import type { NewPerson, PersonRow, SessionEnd, SessionEndReason, SessionRow, TeamStore } from "./team-store";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bb_team_people (
  email TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL, disabled BOOLEAN NOT NULL DEFAULT false,
  password_hash TEXT, sso BOOLEAN NOT NULL DEFAULT false, created_at BIGINT NOT NULL, last_seen_at BIGINT);
CREATE TABLE IF NOT EXISTS bb_team_grants (
  email TEXT NOT NULL REFERENCES bb_team_people(email) ON DELETE CASCADE, resource TEXT NOT NULL, level TEXT NOT NULL,
  PRIMARY KEY (email, resource));
CREATE TABLE IF NOT EXISTS bb_team_sessions (
  id TEXT PRIMARY KEY, email TEXT NOT NULL, created_at BIGINT NOT NULL, last_seen_at BIGINT NOT NULL,
  address TEXT NOT NULL, user_agent TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS bb_team_sessions_email ON bb_team_sessions(email);
CREATE TABLE IF NOT EXISTS bb_team_session_ends (id TEXT PRIMARY KEY, email TEXT NOT NULL, reason TEXT NOT NULL, at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS bb_team_invites (token_hash TEXT PRIMARY KEY, email TEXT NOT NULL, expires_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS bb_team_revision (id INT PRIMARY KEY CHECK (id = 1), n BIGINT NOT NULL);
INSERT INTO bb_team_revision (id, n) VALUES (1, 0) ON CONFLICT DO NOTHING;
`;

const BUMP = "UPDATE bb_team_revision SET n = n + 1 WHERE id = 1";
/** Ends sessions (`$1`: the condition's value(s) follow the reason and time), keeping why; the count is of those ended. */
const endSessionsWhere = (where: string) =>
  `WITH gone AS (DELETE FROM bb_team_sessions WHERE ${where} RETURNING id, email)
   INSERT INTO bb_team_session_ends (id, email, reason, at) SELECT id, email, $1, $2 FROM gone ON CONFLICT (id) DO UPDATE SET email = excluded.email, reason = excluded.reason, at = excluded.at`;
const END_SESSIONS_OF = endSessionsWhere("email = $3");
const endOf = (c: pg.PoolClient, email: string, end: SessionEnd) => c.query(END_SESSIONS_OF, [end.reason, end.at, email]);

/** A person with the expiry of the invite link kept for them (one at most: a new link replaces it). */
const SELECT_PEOPLE = "SELECT *, (SELECT max(expires_at) FROM bb_team_invites i WHERE i.email = p.email) AS invite_expires_at FROM bb_team_people p";
interface PersonDb {
  email: string;
  name: string;
  role: string;
  disabled: boolean;
  password_hash: string | null;
  sso: boolean;
  created_at: string;
  last_seen_at: string | null;
  invite_expires_at: string | null;
}
interface SessionDb {
  id: string;
  email: string;
  created_at: string;
  last_seen_at: string;
  address: string;
  user_agent: string;
}
const toSession = (r: SessionDb): SessionRow => ({
  id: r.id, email: r.email, createdAt: Number(r.created_at), lastSeenAt: Number(r.last_seen_at), address: r.address, userAgent: r.user_agent,
});

export async function openPostgresTeamStore(url: string): Promise<TeamStore> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on("error", () => {}); // an idle client's broken connection: the next query reconnects
  // Several proxies may start at once: one at a time creates the tables.
  const c = await pool.connect();
  try {
    await c.query("SELECT pg_advisory_lock(727140)");
    await c.query(SCHEMA);
  } finally {
    await c.query("SELECT pg_advisory_unlock(727140)").catch(() => {});
    c.release();
  }
  const tx = <T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => inTransaction(pool, fn);
  const withGrants = async (rows: PersonDb[], q: pg.Pool | pg.PoolClient = pool): Promise<PersonRow[]> => {
    if (rows.length === 0) return [];
    const g = await q.query<{ email: string; resource: string; level: string }>(
      "SELECT email, resource, level FROM bb_team_grants WHERE email = ANY($1) ORDER BY resource", [rows.map((r) => r.email)]);
    return rows.map((r) => ({
      email: r.email, name: r.name, role: r.role as Role, disabled: r.disabled, passwordHash: r.password_hash, sso: r.sso,
      createdAt: Number(r.created_at), lastSeenAt: r.last_seen_at === null ? null : Number(r.last_seen_at),
      inviteExpiresAt: r.invite_expires_at === null ? null : Number(r.invite_expires_at),
      grants: g.rows.filter((x) => x.email === r.email).map((x) => ({ resource: x.resource as Resource, level: x.level as GrantLevel })),
    }));
  };
  const one = async (email: string, q: pg.Pool | pg.PoolClient = pool) =>
    (await withGrants((await q.query<PersonDb>(`${SELECT_PEOPLE} WHERE email = $1`, [email])).rows, q))[0];

  return {
    kind: "postgres",
    async ping() {
      await pool.query("SELECT 1");
    },
    async countPeople() {
      return Number((await pool.query<{ n: string }>("SELECT count(*) AS n FROM bb_team_people")).rows[0].n);
    },
    getPerson: (email) => one(email),
    async listPeople() {
      return withGrants((await pool.query<PersonDb>(`${SELECT_PEOPLE} ORDER BY email`)).rows);
    },
    async addPerson(p: NewPerson, now) {
      return tx(async (c) => {
        const r = await c.query("INSERT INTO bb_team_people (email, name, role, password_hash, sso, created_at) VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT DO NOTHING",
          [p.email, p.name, p.role, p.passwordHash, p.sso, now]);
        if (r.rowCount) await c.query(BUMP);
        return r.rowCount === 1;
      });
    },
    async updatePerson(email, patch, end) {
      return tx(async (c) => {
        const sets: string[] = [];
        const args: unknown[] = [];
        const add = (col: string, v: unknown) => (args.push(v), sets.push(`${col} = $${args.length}`));
        if (patch.name !== undefined) add("name", patch.name);
        if (patch.role !== undefined) add("role", patch.role);
        if (patch.disabled !== undefined) add("disabled", patch.disabled);
        if (patch.passwordHash !== undefined) add("password_hash", patch.passwordHash);
        if (sets.length) {
          args.push(email);
          const r = await c.query(`UPDATE bb_team_people SET ${sets.join(", ")} WHERE email = $${args.length}`, args);
          if (r.rowCount === 0) return undefined;
        }
        if (end) await endOf(c, email, end);
        await c.query(BUMP);
        return one(email, c);
      });
    },
    async setGrant(email, resource, level) {
      return tx(async (c) => {
        if ((await c.query("SELECT 1 FROM bb_team_people WHERE email = $1", [email])).rowCount === 0) return false;
        // The same grant again changes nothing: their sessions go on (review 39a #2).
        const had = (await c.query<{ level: string }>("SELECT level FROM bb_team_grants WHERE email = $1 AND resource = $2", [email, resource])).rows[0];
        if (had?.level === level) return true;
        await c.query("INSERT INTO bb_team_grants (email, resource, level) VALUES ($1,$2,$3) ON CONFLICT (email, resource) DO UPDATE SET level = excluded.level",
          [email, resource, level]);
        await endOf(c, email, { reason: "access-changed", at: Date.now() });
        await c.query(BUMP);
        return true;
      });
    },
    async removeGrant(email, resource) {
      return tx(async (c) => {
        const r = await c.query("DELETE FROM bb_team_grants WHERE email = $1 AND resource = $2", [email, resource]);
        if (r.rowCount) {
          await endOf(c, email, { reason: "access-changed", at: Date.now() });
          await c.query(BUMP);
        }
        return r.rowCount === 1;
      });
    },
    async createSession(s) {
      await pool.query("INSERT INTO bb_team_sessions (id, email, created_at, last_seen_at, address, user_agent) VALUES ($1,$2,$3,$4,$5,$6)",
        [s.id, s.email, s.createdAt, s.lastSeenAt, s.address, s.userAgent]);
      await pool.query("UPDATE bb_team_people SET last_seen_at = $1 WHERE email = $2", [s.lastSeenAt, s.email]);
    },
    async getSession(id) {
      const r = (await pool.query<SessionDb>("SELECT * FROM bb_team_sessions WHERE id = $1", [id])).rows[0];
      return r && toSession(r);
    },
    async touchSession(id, email, at) {
      await pool.query("UPDATE bb_team_sessions SET last_seen_at = $1 WHERE id = $2", [at, id]);
      await pool.query("UPDATE bb_team_people SET last_seen_at = $1 WHERE email = $2", [at, email]);
    },
    async listSessions(email) {
      return (await pool.query<SessionDb>("SELECT * FROM bb_team_sessions WHERE email = $1 ORDER BY last_seen_at DESC", [email])).rows.map(toSession);
    },
    async deleteSession(email, id, end) {
      return tx(async (c) => {
        const r = await c.query(endSessionsWhere("email = $3 AND id = $4"), [end.reason, end.at, email, id]);
        if (r.rowCount) await c.query(BUMP);
        return r.rowCount === 1;
      });
    },
    async deleteSessionsOf(email, end) {
      return tx(async (c) => {
        const r = await endOf(c, email, end);
        if (r.rowCount) await c.query(BUMP);
        return r.rowCount ?? 0;
      });
    },
    async sessionEnd(id) {
      const r = (await pool.query<{ reason: string; at: string; email: string }>("SELECT reason, at, email FROM bb_team_session_ends WHERE id = $1", [id])).rows[0];
      return r && { reason: r.reason as SessionEndReason, at: Number(r.at), email: r.email };
    },
    async pruneSessions(now, idleMs, absoluteMs) {
      const [idleBefore, createdBefore] = [now - idleMs, now - absoluteMs];
      await tx(async (c) => {
        await c.query(
          // Ended at its limit (idle: last seen + the idle time; expired: created + the absolute time).
          `WITH gone AS (DELETE FROM bb_team_sessions WHERE last_seen_at < $2 OR created_at < $3 RETURNING id, email, created_at, last_seen_at)
           INSERT INTO bb_team_session_ends (id, email, reason, at)
           SELECT id, email, CASE WHEN created_at < $3 THEN 'expired' ELSE 'idle' END, CASE WHEN created_at < $3 THEN created_at + $4::bigint ELSE last_seen_at + $1::bigint END FROM gone
           ON CONFLICT (id) DO UPDATE SET email = excluded.email, reason = excluded.reason, at = excluded.at`,
          [idleMs, idleBefore, createdBefore, absoluteMs]);
        await c.query("DELETE FROM bb_team_session_ends WHERE at < $1", [createdBefore]);
      });
    },
    async createInvite(tokenHash, email, expiresAt) {
      await tx(async (c) => {
        await c.query("DELETE FROM bb_team_invites WHERE email = $1", [email]);
        await c.query("INSERT INTO bb_team_invites (token_hash, email, expires_at) VALUES ($1,$2,$3)", [tokenHash, email, expiresAt]);
      });
    },
    async takeInvite(tokenHash, now) {
      const r = (await pool.query<{ email: string; expires_at: string }>("DELETE FROM bb_team_invites WHERE token_hash = $1 RETURNING email, expires_at", [tokenHash])).rows[0];
      return r && Number(r.expires_at) > now ? r.email : undefined;
    },
    async peekInvite(tokenHash, now) {
      const r = (await pool.query<{ email: string; expires_at: string }>("SELECT email, expires_at FROM bb_team_invites WHERE token_hash = $1", [tokenHash])).rows[0];
      return r && Number(r.expires_at) > now ? r.email : undefined;
    },
    async revision() {
      return Number((await pool.query<{ n: string }>("SELECT n FROM bb_team_revision WHERE id = 1")).rows[0].n);
    },
    async close() {
      await pool.end();
    },
  };
}
