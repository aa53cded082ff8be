/**
 * The audit trail in PostgreSQL (BASEBOARD_DATABASE_URL): several proxies append to ONE chain;
 * each append holds a transaction-level advisory lock while it reads the head and writes the
 * next entry, so two proxies never both link to the same predecessor (no forks).
 */
import pg from "pg";
import { inTransaction } from "../store/pg-transaction";
import { pgJsonText, pgText } from "../store/pg-text";
import { type AuditEntry, type Checkpoint, entryHash, GENESIS, type NewAuditEntry } from "./audit-entry";
import { type AuditLog, type AuditQuery, inFlight, IN_FLIGHT_MS, namesNotAll, partialListProblem } from "./audit-log";
import { toEntry } from "./sqlite-audit-log";

const LOCK = 727142;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS bb_audit (
  seq BIGINT PRIMARY KEY, at BIGINT NOT NULL, actor_email TEXT NOT NULL, actor_kind TEXT NOT NULL,
  address TEXT NOT NULL, kind TEXT NOT NULL, endpoint TEXT NOT NULL, resource TEXT, keys TEXT NOT NULL,
  detail TEXT NOT NULL, ref BIGINT, prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS bb_audit_at ON bb_audit(at);
CREATE INDEX IF NOT EXISTS bb_audit_resource ON bb_audit(resource, seq);
CREATE INDEX IF NOT EXISTS bb_audit_actor ON bb_audit(actor_email, seq);
CREATE INDEX IF NOT EXISTS bb_audit_ref ON bb_audit(ref);
CREATE TABLE IF NOT EXISTS bb_audit_keys (resource TEXT NOT NULL, key TEXT NOT NULL, seq BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS bb_audit_keys_lookup ON bb_audit_keys(resource, key, seq);
CREATE TABLE IF NOT EXISTS bb_audit_partial (resource TEXT NOT NULL, change BIGINT NOT NULL, PRIMARY KEY (resource, change));
CREATE TABLE IF NOT EXISTS bb_audit_checkpoint (id INT PRIMARY KEY CHECK (id = 1), seq BIGINT NOT NULL, hash TEXT NOT NULL);
INSERT INTO bb_audit_checkpoint (id, seq, hash) VALUES (1, 0, '${GENESIS}') ON CONFLICT DO NOTHING;
`;

export async function openPostgresAuditLog(url: string): Promise<AuditLog> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on("error", () => {});
  const c = await pool.connect();
  try {
    await c.query(`SELECT pg_advisory_lock(${LOCK})`);
    await c.query(SCHEMA);
  } finally {
    await c.query(`SELECT pg_advisory_unlock(${LOCK})`).catch(() => {});
    c.release();
  }
  const tx = <T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => inTransaction(pool, fn);
  return {
    kind: "postgres",
    append: (e: NewAuditEntry) =>
      tx(async (c) => {
        await c.query(`SELECT pg_advisory_xact_lock(${LOCK})`);
        const last =
          (await c.query<{ seq: string; hash: string }>("SELECT seq, hash FROM bb_audit ORDER BY seq DESC LIMIT 1")).rows[0] ??
          (await c.query<{ seq: string; hash: string }>("SELECT seq, hash FROM bb_audit_checkpoint WHERE id = 1")).rows[0];
        const base = {
          seq: Number(last.seq) + 1,
          at: e.at,
          actorEmail: pgText(e.actorEmail),
          actorKind: e.actorKind,
          address: pgText(e.address),
          kind: e.kind,
          endpoint: e.endpoint,
          resource: e.resource === null ? null : pgText(e.resource),
          // What PostgreSQL cannot hold (NUL, a lone surrogate half) is written so it can, before the hash.
          keys: e.keys.map(pgText),
          detailJson: pgJsonText(JSON.stringify(e.detail)),
          ref: e.ref ?? null,
        };
        const hash = entryHash(last.hash, base);
        await c.query(
          "INSERT INTO bb_audit (seq, at, actor_email, actor_kind, address, kind, endpoint, resource, keys, detail, ref, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)",
          [base.seq, base.at, base.actorEmail, base.actorKind, base.address, base.kind, base.endpoint, base.resource, JSON.stringify(base.keys), base.detailJson, base.ref, last.hash, hash],
        );
        const keys = base.resource ? base.keys.slice(0, 10_000) : [];
        if (keys.length) {
          await c.query("INSERT INTO bb_audit_keys (resource, key, seq) SELECT $1, k, $2 FROM unnest($3::text[]) AS k", [base.resource, base.seq, keys]);
        }
        // Past the before-images' limit: every Record's history of the table lists it (partial).
        if (base.resource && namesNotAll(e.detail)) {
          await c.query("INSERT INTO bb_audit_partial (resource, change) VALUES ($1, $2) ON CONFLICT DO NOTHING", [base.resource, e.kind === "outcome" && e.ref ? e.ref : base.seq]);
        }
        return { ...base, prevHash: last.hash, hash } as AuditEntry;
      }),
    async list(q: AuditQuery) {
      const where: string[] = [];
      const args: unknown[] = [];
      const arg = (v: unknown) => {
        args.push(v);
        return `$${args.length}`;
      };
      if (q.resource && q.key !== undefined) {
        where.push(
          `(seq IN (SELECT CASE WHEN a.kind = 'outcome' THEN a.ref ELSE a.seq END FROM bb_audit_keys k JOIN bb_audit a ON a.seq = k.seq WHERE k.resource = ${arg(q.resource)} AND k.key = ${arg(q.key)}) OR seq IN (SELECT change FROM bb_audit_partial WHERE resource = ${arg(q.resource)}))`,
        );
      }
      else if (q.resource) where.push(`resource = ${arg(q.resource)}`);
      else if (q.key !== undefined) where.push(`seq IN (SELECT CASE WHEN a.kind = 'outcome' THEN a.ref ELSE a.seq END FROM bb_audit_keys k JOIN bb_audit a ON a.seq = k.seq WHERE k.key = ${arg(q.key)})`);
      if (q.actor) where.push(`actor_email = ${arg(q.actor)}`);
      if (q.since !== undefined) where.push(`at >= ${arg(q.since)}`);
      if (q.until !== undefined) where.push(`at <= ${arg(q.until)}`);
      if (q.kinds?.length) {
        // "refused" also finds changes the upstream itself refused (a 403 in their outcome).
        const upstreamRefused = q.kinds.includes("refused")
          ? " OR EXISTS (SELECT 1 FROM bb_audit o WHERE o.ref = bb_audit.seq AND o.kind = 'outcome' AND (o.detail::jsonb ->> 'outcome') = 'refused')"
          : "";
        where.push(`(kind = ANY(${arg(q.kinds)})${upstreamRefused})`);
      } else where.push("kind <> 'outcome'");
      if (q.beforeSeq !== undefined) where.push(`seq < ${arg(q.beforeSeq)}`);
      const sql = `SELECT * FROM bb_audit ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq DESC LIMIT ${arg(q.limit)}`;
      return (await pool.query(sql, args)).rows.map(toEntry);
    },
    async outcomesOf(seqs) {
      const out = new Map<number, AuditEntry>();
      if (seqs.length === 0) return out;
      for (const r of (await pool.query("SELECT * FROM bb_audit WHERE kind = 'outcome' AND ref = ANY($1) ORDER BY seq", [seqs])).rows) out.set(Number(r.ref), toEntry(r));
      return out;
    },
    async batch(afterSeq, limit) {
      return (await pool.query("SELECT * FROM bb_audit WHERE seq > $1 ORDER BY seq LIMIT $2", [afterSeq, limit])).rows.map(toEntry);
    },
    async historyIndexProblem() {
      // What the entries say (the first 10,000 keys of each entry in a resource) against the index, both ways.
      const expected = `SELECT a.resource, k.key, a.seq FROM bb_audit a, jsonb_array_elements_text(a.keys::jsonb) WITH ORDINALITY AS k(key, n) WHERE a.resource IS NOT NULL AND k.n <= 10000`;
      const r = await pool.query<{ key: string; seq: string; side: string }>(
        `(SELECT key, seq, 'missing' AS side FROM (${expected} EXCEPT SELECT resource, key, seq FROM bb_audit_keys) m LIMIT 1)
         UNION ALL (SELECT key, seq, 'extra' AS side FROM (SELECT resource, key, seq FROM bb_audit_keys EXCEPT ${expected}) x LIMIT 1)`,
      );
      const first = r.rows[0];
      if (first) return first.side === "missing" ? `the history of "${first.key}" does not list entry ${first.seq} where its entries put it` : `the history of "${first.key}" lists entry ${first.seq}, which no entry gives it`;
      // bb_audit_partial against the entries, both ways (retention drops both up to the checkpoint).
      const partial = `SELECT resource, CASE WHEN kind = 'outcome' AND ref IS NOT NULL THEN ref ELSE seq END AS change FROM bb_audit
        WHERE resource IS NOT NULL AND (((detail::jsonb ->> 'beforeImagesOmitted') ~ '^[0-9.]+$' AND (detail::jsonb ->> 'beforeImagesOmitted')::numeric > 0)
          OR ((detail::jsonb ->> 'addedOmitted') ~ '^[0-9.]+$' AND (detail::jsonb ->> 'addedOmitted')::numeric > 0)
          OR (detail::jsonb -> 'recordsNotNamed') = 'true'::jsonb)`;
      const p = await pool.query<{ resource: string; change: string; side: "missing" | "extra" }>(
        `(SELECT resource, change, 'missing' AS side FROM (SELECT * FROM (${partial}) e WHERE change > COALESCE((SELECT seq FROM bb_audit_checkpoint WHERE id = 1), 0)
           EXCEPT SELECT resource, change FROM bb_audit_partial) m LIMIT 1)
         UNION ALL (SELECT resource, change, 'extra' AS side FROM (SELECT resource, change FROM bb_audit_partial EXCEPT ${partial}) x LIMIT 1)`,
      );
      const q = p.rows[0];
      return q ? partialListProblem(q.side, q.resource, Number(q.change)) : undefined;
    },
    async checkpoint(): Promise<Checkpoint> {
      const r = (await pool.query<{ seq: string; hash: string }>("SELECT seq, hash FROM bb_audit_checkpoint WHERE id = 1")).rows[0];
      return { seq: Number(r.seq), hash: r.hash };
    },
    // `before` may hold a fraction of a millisecond (a retention of 0.3 days; review 54a #1: the
    // bigint column refused it): \`at < before\` is \`at < ceil(before)\` for whole milliseconds.
    dropOlderThan: (before) =>
      tx(async (c) => {
        await c.query(`SELECT pg_advisory_xact_lock(${LOCK})`);
        // Not past a change still under way (its outcome would be left without what was asked).
        const held = (await c.query<{ seq: string | null }>(`SELECT min(a.seq) AS seq FROM bb_audit a WHERE ${inFlight("bb_audit", "$1")}`, [Date.now() - IN_FLIGHT_MS])).rows[0]?.seq;
        const last = (
          await c.query<{ seq: string; hash: string }>("SELECT seq, hash FROM bb_audit WHERE at < $1 AND seq < $2 ORDER BY seq DESC LIMIT 1", [Math.ceil(before), held ?? Number.MAX_SAFE_INTEGER])
        ).rows[0];
        if (!last) return 0;
        const r = await c.query("DELETE FROM bb_audit WHERE seq <= $1", [last.seq]);
        await c.query("DELETE FROM bb_audit_keys WHERE seq <= $1", [last.seq]);
        await c.query("DELETE FROM bb_audit_partial WHERE change <= $1", [last.seq]);
        await c.query("UPDATE bb_audit_checkpoint SET seq = $1, hash = $2 WHERE id = 1", [last.seq, last.hash]);
        return r.rowCount ?? 0;
      }),
    async close() {
      await pool.end();
    },
  };
}

