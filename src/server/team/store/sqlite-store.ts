/**
 * The embedded team store: one SQLite file, DATA_DIR/team.sqlite, through better-sqlite3.
 * Why SQLite and not the DuckDB file the Records live in: the team store takes small
 * transactional writes (a session, a grant) from the proxy AND from `npm run people` while the
 * proxy runs; SQLite in WAL mode lets several processes write one file safely, where DuckDB
 * lets only one process open its file. It also keeps people apart from the data they guard.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { GrantLevel, Resource, Role } from "../contract";
import type { NewPerson, PersonRow, SessionEnd, SessionEndReason, SessionRow, TeamStore } from "./team-store";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS people (
  email TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL, disabled INTEGER NOT NULL DEFAULT 0,
  password_hash TEXT, sso INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, last_seen_at INTEGER);
CREATE TABLE IF NOT EXISTS grants (
  email TEXT NOT NULL REFERENCES people(email) ON DELETE CASCADE, resource TEXT NOT NULL, level TEXT NOT NULL,
  PRIMARY KEY (email, resource));
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, email TEXT NOT NULL, created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL,
  address TEXT NOT NULL, user_agent TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_email ON sessions(email);
CREATE TABLE IF NOT EXISTS session_ends (id TEXT PRIMARY KEY, email TEXT NOT NULL, reason TEXT NOT NULL, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS invites (token_hash TEXT PRIMARY KEY, email TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS revision (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
INSERT OR IGNORE INTO revision (id, n) VALUES (1, 0);
`;

/** A person with the expiry of the invite link kept for them (one at most: a new link replaces it). */
const SELECT_PEOPLE = "SELECT *, (SELECT max(expires_at) FROM invites i WHERE i.email = people.email) AS invite_expires_at FROM people";
interface PersonDb {
  email: string;
  name: string;
  role: string;
  disabled: number;
  password_hash: string | null;
  sso: number;
  created_at: number;
  last_seen_at: number | null;
  invite_expires_at: number | null;
}
interface SessionDb {
  id: string;
  email: string;
  created_at: number;
  last_seen_at: number;
  address: string;
  user_agent: string;
}

const toSession = (r: SessionDb): SessionRow => ({ id: r.id, email: r.email, createdAt: r.created_at, lastSeenAt: r.last_seen_at, address: r.address, userAgent: r.user_agent });

export function openSqliteTeamStore(dataDir: string): TeamStore {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, "team.sqlite"));
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  db.exec(SCHEMA);
  const bump = db.prepare("UPDATE revision SET n = n + 1 WHERE id = 1");
  const grantsOf = db.prepare<[string], { resource: string; level: string }>("SELECT resource, level FROM grants WHERE email = ? ORDER BY resource");
  const toPerson = (r: PersonDb): PersonRow => ({
    email: r.email,
    name: r.name,
    role: r.role as Role,
    disabled: r.disabled === 1,
    passwordHash: r.password_hash,
    sso: r.sso === 1,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    inviteExpiresAt: r.invite_expires_at,
    grants: grantsOf.all(r.email).map((g) => ({ resource: g.resource as Resource, level: g.level as GrantLevel })),
  });
  const getPerson = db.prepare<[string], PersonDb>(`${SELECT_PEOPLE} WHERE email = ?`);
  // A session ends by being moved to session_ends with its reason (one statement each way, in
  // one transaction where the caller has one).
  const keepEnds = db.prepare("INSERT OR REPLACE INTO session_ends (id, email, reason, at) SELECT id, email, ?, ? FROM sessions WHERE email = ? AND (? IS NULL OR id = ?)");
  const dropSessions = db.prepare("DELETE FROM sessions WHERE email = ? AND (? IS NULL OR id = ?)");
  /** Ends the person's sessions, or the one `id` names. */
  const endSessions = (email: string, end: SessionEnd, id: string | null = null) => {
    keepEnds.run(end.reason, end.at, email, id, id);
    return dropSessions.run(email, id, id);
  };
  const accessChanged = (email: string) => endSessions(email, { reason: "access-changed", at: Date.now() });

  return {
    kind: "embedded",
    async ping() {
      db.prepare("SELECT 1").get();
    },
    async countPeople() {
      return (db.prepare("SELECT count(*) AS n FROM people").get() as { n: number }).n;
    },
    async getPerson(email) {
      const r = getPerson.get(email);
      return r && toPerson(r);
    },
    async listPeople() {
      return (db.prepare(`${SELECT_PEOPLE} ORDER BY email`).all() as PersonDb[]).map(toPerson);
    },
    async addPerson(p: NewPerson, now: number) {
      const r = db
        .prepare("INSERT INTO people (email, name, role, password_hash, sso, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
        .run(p.email, p.name, p.role, p.passwordHash, p.sso ? 1 : 0, now);
      if (r.changes) bump.run();
      return r.changes === 1;
    },
    async updatePerson(email, patch, end) {
      return db.transaction(() => {
        const sets: string[] = [];
        const args: unknown[] = [];
        const add = (column: string, value: unknown) => {
          sets.push(`${column} = ?`);
          args.push(value);
        };
        if (patch.name !== undefined) add("name", patch.name);
        if (patch.role !== undefined) add("role", patch.role);
        if (patch.disabled !== undefined) add("disabled", patch.disabled ? 1 : 0);
        if (patch.passwordHash !== undefined) add("password_hash", patch.passwordHash);
        if (sets.length) {
          const r = db.prepare(`UPDATE people SET ${sets.join(", ")} WHERE email = ?`).run(...args, email);
          if (r.changes === 0) return undefined;
        }
        if (end) endSessions(email, end);
        bump.run();
        const row = getPerson.get(email);
        return row && toPerson(row);
      })();
    },
    async setGrant(email, resource, level) {
      return db.transaction(() => {
        if (!getPerson.get(email)) return false;
        // The same grant again changes nothing: their sessions go on (review 39a #2).
        const had = db.prepare<[string, string], { level: string }>("SELECT level FROM grants WHERE email = ? AND resource = ?").get(email, resource);
        if (had?.level === level) return true;
        db.prepare("INSERT INTO grants (email, resource, level) VALUES (?, ?, ?) ON CONFLICT (email, resource) DO UPDATE SET level = excluded.level").run(email, resource, level);
        accessChanged(email);
        bump.run();
        return true;
      })();
    },
    async removeGrant(email, resource) {
      return db.transaction(() => {
        const r = db.prepare("DELETE FROM grants WHERE email = ? AND resource = ?").run(email, resource);
        if (r.changes) {
          accessChanged(email);
          bump.run();
        }
        return r.changes === 1;
      })();
    },
    async createSession(s) {
      db.prepare("INSERT INTO sessions (id, email, created_at, last_seen_at, address, user_agent) VALUES (?, ?, ?, ?, ?, ?)").run(
        s.id, s.email, s.createdAt, s.lastSeenAt, s.address, s.userAgent);
      db.prepare("UPDATE people SET last_seen_at = ? WHERE email = ?").run(s.lastSeenAt, s.email);
    },
    async getSession(id) {
      const r = db.prepare<[string], SessionDb>("SELECT * FROM sessions WHERE id = ?").get(id);
      return r && toSession(r);
    },
    async touchSession(id, email, at) {
      db.prepare("UPDATE sessions SET last_seen_at = ? WHERE id = ?").run(at, id);
      db.prepare("UPDATE people SET last_seen_at = ? WHERE email = ?").run(at, email);
    },
    async listSessions(email) {
      return (db.prepare("SELECT * FROM sessions WHERE email = ? ORDER BY last_seen_at DESC").all(email) as SessionDb[]).map(toSession);
    },
    async deleteSession(email, id, end) {
      return db.transaction(() => {
        const r = endSessions(email, end, id);
        if (r.changes) bump.run();
        return r.changes === 1;
      })();
    },
    async deleteSessionsOf(email, end) {
      return db.transaction(() => {
        const r = endSessions(email, end);
        if (r.changes) bump.run();
        return r.changes;
      })();
    },
    async sessionEnd(id) {
      const r = db.prepare<[string], { reason: string; at: number; email: string }>("SELECT reason, at, email FROM session_ends WHERE id = ?").get(id);
      return r && { reason: r.reason as SessionEndReason, at: r.at, email: r.email };
    },
    async pruneSessions(now, idleMs, absoluteMs) {
      const [idleBefore, createdBefore] = [now - idleMs, now - absoluteMs];
      db.transaction(() => {
        // Ended at its limit (idle: last seen + the idle time; expired: created + the absolute time).
        db.prepare(
          "INSERT OR REPLACE INTO session_ends (id, email, reason, at) SELECT id, email, CASE WHEN created_at < ? THEN 'expired' ELSE 'idle' END, CASE WHEN created_at < ? THEN created_at + ? ELSE last_seen_at + ? END FROM sessions WHERE last_seen_at < ? OR created_at < ?",
        ).run(createdBefore, createdBefore, absoluteMs, idleMs, idleBefore, createdBefore);
        db.prepare("DELETE FROM sessions WHERE last_seen_at < ? OR created_at < ?").run(idleBefore, createdBefore);
        db.prepare("DELETE FROM session_ends WHERE at < ?").run(createdBefore);
      })();
    },
    async createInvite(tokenHash, email, expiresAt) {
      db.transaction(() => {
        db.prepare("DELETE FROM invites WHERE email = ?").run(email);
        db.prepare("INSERT INTO invites (token_hash, email, expires_at) VALUES (?, ?, ?)").run(tokenHash, email, expiresAt);
      })();
    },
    async takeInvite(tokenHash, now) {
      return db.transaction(() => {
        const r = db.prepare<[string], { email: string; expires_at: number }>("SELECT email, expires_at FROM invites WHERE token_hash = ?").get(tokenHash);
        if (!r) return undefined;
        db.prepare("DELETE FROM invites WHERE token_hash = ?").run(tokenHash);
        return r.expires_at > now ? r.email : undefined;
      })();
    },
    async peekInvite(tokenHash, now) {
      const r = db.prepare<[string], { email: string; expires_at: number }>("SELECT email, expires_at FROM invites WHERE token_hash = ?").get(tokenHash);
      return r && r.expires_at > now ? r.email : undefined;
    },
    async revision() {
      return (db.prepare("SELECT n FROM revision WHERE id = 1").get() as { n: number }).n;
    },
    async close() {
      db.close();
    },
  };
}
