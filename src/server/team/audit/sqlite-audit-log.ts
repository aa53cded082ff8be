/**
 * The audit trail in DATA_DIR/audit.sqlite (its own file: a full or read-only trail must stop
 * changes, not sign-ins). Appends take SQLite's write lock (BEGIN IMMEDIATE), so the proxy and
 * the `audit` command never fork the chain.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { type AuditEntry, type Checkpoint, entryHash, GENESIS, type NewAuditEntry } from "./audit-entry";
import { type AuditLog, type AuditQuery, inFlight, IN_FLIGHT_MS, namesNotAll, partialListProblem } from "./audit-log";
import { whyUnwritable } from "../store/why-unwritable";
import { openSpaceReserve } from "./space-reserve";
import { chainSql, INLINE_KEYS, openKeyChains } from "./sqlite-key-chains";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit (
  seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, actor_email TEXT NOT NULL, actor_kind TEXT NOT NULL,
  address TEXT NOT NULL, kind TEXT NOT NULL, endpoint TEXT NOT NULL, resource TEXT, keys TEXT NOT NULL,
  detail TEXT NOT NULL, ref INTEGER, prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS audit_at ON audit(at);
CREATE INDEX IF NOT EXISTS audit_resource ON audit(resource, seq);
CREATE INDEX IF NOT EXISTS audit_actor ON audit(actor_email, seq);
CREATE INDEX IF NOT EXISTS audit_ref ON audit(ref);
-- Changes past the before-images' limit (10,000): they may have touched Records they do not
-- name, so every Record's history of that table lists them (marked: partial).
CREATE TABLE IF NOT EXISTS audit_partial (resource TEXT NOT NULL, change INTEGER NOT NULL, PRIMARY KEY (resource, change)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS audit_checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, hash TEXT NOT NULL);
INSERT OR IGNORE INTO audit_checkpoint (id, seq, hash) VALUES (1, 0, '${GENESIS}');
`;

interface Row {
  seq: number;
  at: number;
  actor_email: string;
  actor_kind: string;
  address: string;
  kind: string;
  endpoint: string;
  resource: string | null;
  keys: string;
  detail: string;
  ref: number | null;
  prev_hash: string;
  hash: string;
}

export const toEntry = (r: Row): AuditEntry => ({
  seq: Number(r.seq),
  at: Number(r.at),
  actorEmail: r.actor_email,
  actorKind: r.actor_kind,
  address: r.address,
  kind: r.kind as AuditEntry["kind"],
  endpoint: r.endpoint,
  resource: r.resource,
  keys: JSON.parse(r.keys) as string[],
  detailJson: r.detail,
  ref: r.ref === null ? null : Number(r.ref),
  prevHash: r.prev_hash,
  hash: r.hash,
});

/** The trail's file, opened as every process using it opens it. */
export function openTrailFile(file: string): Database.Database {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  // Said, not left to the build: SQLite applies the build's WAL default (NORMAL) only to a file
  // that was already in WAL mode when opened, so a new trail ran FULL until its first restart.
  // NORMAL: an entry is in the log file before the change is forwarded (a killed process loses
  // none); the file is synced at checkpoints (README, "Durability of the embedded trail").
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 10000");
  return db;
}

/** Room kept for outcomes (space-reserve.ts), unless BASEBOARD_AUDIT_RESERVE_MB says otherwise. */
export const AUDIT_RESERVE_MB = 16;

export function openSqliteAuditLog(dataDir: string, reserveMb = AUDIT_RESERVE_MB): AuditLog {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = openTrailFile(path.join(dataDir, "audit.sqlite"));
  const reserve = openSpaceReserve(path.join(dataDir, "audit.reserve"), reserveMb * 1024 * 1024);
  db.exec(SCHEMA);
  const head = db.prepare<[], { seq: number; hash: string }>("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1");
  const cp = db.prepare<[], { seq: number; hash: string }>("SELECT seq, hash FROM audit_checkpoint WHERE id = 1");
  const insert = db.prepare(
    "INSERT INTO audit (seq, at, actor_email, actor_kind, address, kind, endpoint, resource, keys, detail, ref, prev_hash, hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
  );
  const chains = openKeyChains(db);
  const notePartial = db.prepare("INSERT OR IGNORE INTO audit_partial (resource, change) VALUES (?, ?)");
  // audit_partial against the entries, both ways (what `notePartial` is told on append; retention
  // drops both up to the checkpoint).
  const expectedPartial = `SELECT resource, CASE WHEN kind = 'outcome' AND ref IS NOT NULL THEN ref ELSE seq END AS change FROM audit
    WHERE resource IS NOT NULL AND json_valid(detail)
      AND (CAST(json_extract(detail, '$.beforeImagesOmitted') AS REAL) > 0 OR CAST(json_extract(detail, '$.addedOmitted') AS REAL) > 0
        OR json_type(detail, '$.recordsNotNamed') = 'true')`;
  const partialCheck = db.prepare<[], { resource: string; change: number; side: "missing" | "extra" }>(
    `SELECT * FROM (SELECT resource, change, 'missing' AS side FROM (SELECT * FROM (${expectedPartial}) WHERE change > COALESCE((SELECT seq FROM audit_checkpoint WHERE id = 1), 0)
       EXCEPT SELECT resource, change FROM audit_partial) LIMIT 1)
     UNION ALL SELECT * FROM (SELECT resource, change, 'extra' AS side FROM (SELECT resource, change FROM audit_partial EXCEPT ${expectedPartial}) LIMIT 1)`,
  );
  const append = db.transaction((e: NewAuditEntry): AuditEntry => {
    const last = head.get() ?? cp.get() ?? { seq: 0, hash: GENESIS };
    const base = {
      seq: last.seq + 1,
      at: e.at,
      actorEmail: e.actorEmail,
      actorKind: e.actorKind,
      address: e.address,
      kind: e.kind,
      endpoint: e.endpoint,
      resource: e.resource,
      keys: e.keys,
      detailJson: JSON.stringify(e.detail),
      ref: e.ref ?? null,
    };
    const hash = entryHash(last.hash, base);
    const keysJson = JSON.stringify(base.keys);
    insert.run(base.seq, base.at, base.actorEmail, base.actorKind, base.address, base.kind, base.endpoint, base.resource, keysJson, base.detailJson, base.ref, last.hash, hash);
    // An outcome's keys belong to the change it completes (a Record's history lists changes).
    const change = e.kind === "outcome" && e.ref ? e.ref : base.seq;
    if (e.resource) chains.link(e.resource, change, keysJson, e.keys.length, base.seq);
    if (e.resource && namesNotAll(e.detail)) notePartial.run(e.resource, change);
    return { ...base, prevHash: last.hash, hash };
  });

  // Pending keys are linked a slice at a time, each slice its own transaction, whenever the
  // event loop is free: a request arriving meanwhile waits for one slice (~1 ms), not for all.
  // A slice that fails (a full disk) leaves them pending: histories still find them, and the
  // next append tries again.
  const linkSlice = db.transaction(() => chains.linkPending());
  let linking: NodeJS.Immediate | undefined;
  let caughtUp: (() => void)[] = [];
  let closed = false;
  const settle = () => {
    for (const resolve of caughtUp) resolve();
    caughtUp = [];
  };
  function linkLater() {
    if (linking || closed) return;
    linking = setImmediate(() => {
      linking = undefined;
      let more: boolean;
      try {
        more = linkSlice.immediate();
      } catch {
        more = false; // still pending: the next append, or the next open, tries again
      }
      if (more && !closed) linkLater();
      else settle();
    });
  }
  if (chains.hasPending()) linkLater();

  return {
    kind: "embedded",
    async append(e) {
      // A change starts only with room kept for its outcome; an outcome may use that room.
      const startsChange = e.kind !== "outcome" && e.kind !== "refused" && e.kind !== "sign-in-failed";
      if (startsChange && !reserve.ensure()) {
        throw Object.assign(new Error("database or disk is full: no room is left to keep for the outcome of a change"), { code: "SQLITE_FULL" });
      }
      let entry: AuditEntry;
      try {
        entry = append.immediate(e);
      } catch (err) {
        if (e.kind !== "outcome" || whyUnwritable(err) !== "its disk is full" || !reserve.release()) throw err;
        entry = append.immediate(e);
      }
      if (e.keys.length > INLINE_KEYS) linkLater();
      return entry;
    },
    async linked() {
      if (!chains.hasPending() || closed) return;
      await new Promise<void>((resolve) => {
        caughtUp.push(resolve);
        linkLater();
      });
    },
    async list(q: AuditQuery) {
      const where: string[] = [];
      const args: unknown[] = [];
      const add = (clause: string, ...values: unknown[]) => {
        where.push(clause);
        args.push(...values);
      };
      if (q.resource && q.key !== undefined) {
        where.push(`(seq IN (${chainSql(true)}) OR seq IN (SELECT change FROM audit_partial WHERE resource = ?))`);
        args.push(q.resource, q.key, q.resource, q.key, q.resource);
      } else if (q.resource) {
        where.push("resource = ?");
        args.push(q.resource);
      } else if (q.key !== undefined) {
        where.push(`seq IN (${chainSql(false)})`);
        args.push(q.key, q.key);
      }
      if (q.actor) add("actor_email = ?", q.actor);
      if (q.since !== undefined) add("at >= ?", q.since);
      if (q.until !== undefined) add("at <= ?", q.until);
      if (q.kinds?.length) {
        // "refused" also finds changes the upstream itself refused (a 403 in their outcome).
        const upstreamRefused = q.kinds.includes("refused")
          ? " OR EXISTS (SELECT 1 FROM audit o WHERE o.ref = audit.seq AND o.kind = 'outcome' AND json_extract(o.detail, '$.outcome') = 'refused')"
          : "";
        add(`(kind IN (${q.kinds.map(() => "?").join(",")})${upstreamRefused})`, ...q.kinds);
      } else add("kind <> 'outcome'");
      if (q.beforeSeq !== undefined) add("seq < ?", q.beforeSeq);
      const sql = `SELECT * FROM audit ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq DESC LIMIT ?`;
      return (db.prepare(sql).all(...args, q.limit) as Row[]).map(toEntry);
    },
    async outcomesOf(seqs) {
      const out = new Map<number, AuditEntry>();
      if (seqs.length === 0) return out;
      const rows = db.prepare(`SELECT * FROM audit WHERE kind = 'outcome' AND ref IN (${seqs.map(() => "?").join(",")}) ORDER BY seq`).all(...seqs) as Row[];
      for (const r of rows) out.set(Number(r.ref), toEntry(r));
      return out;
    },
    async batch(afterSeq, limit) {
      return (db.prepare("SELECT * FROM audit WHERE seq > ? ORDER BY seq LIMIT ?").all(afterSeq, limit) as Row[]).map(toEntry);
    },
    async checkpoint(): Promise<Checkpoint> {
      return cp.get() as Checkpoint;
    },
    async historyIndexProblem() {
      const chain = chains.problem();
      if (chain) return chain;
      const p = partialCheck.get();
      return p ? partialListProblem(p.side, p.resource, p.change) : undefined;
    },
    async dropOlderThan(before) {
      return db.transaction(() => {
        // Not past a change still under way (its outcome would be left without what was asked).
        const held = db.prepare<[number], { seq: number | null }>(`SELECT min(a.seq) AS seq FROM audit a WHERE ${inFlight("audit", "?")}`).get(Date.now() - IN_FLIGHT_MS)?.seq;
        const last = db.prepare<[number, number], { seq: number; hash: string }>("SELECT seq, hash FROM audit WHERE at < ? AND seq < ? ORDER BY seq DESC LIMIT 1").get(before, held ?? Number.MAX_SAFE_INTEGER);
        if (!last) return 0;
        const r = db.prepare("DELETE FROM audit WHERE seq <= ?").run(last.seq);
        chains.dropUpTo(last.seq);
        db.prepare("DELETE FROM audit_partial WHERE change <= ?").run(last.seq);
        db.prepare("UPDATE audit_checkpoint SET seq = ?, hash = ? WHERE id = 1").run(last.seq, last.hash);
        return r.changes;
      }).immediate();
    },
    async close() {
      closed = true;
      if (linking) clearImmediate(linking);
      settle();
      db.close();
    },
  };
}
