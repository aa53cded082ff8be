/**
 * Which entries touched a Record or file, for the embedded trail: one chain per (resource, key).
 * `audit_key_last` holds the newest change of each key (one row per key, updated in place) and
 * `audit_key_link` one row per (change, key) pointing at the key's previous change, appended in
 * seq order. An entry with 10,000 keys then writes about a hundred pages, however long the
 * history is. The index it replaces, one (resource, key, seq) row per key per entry, put each new
 * row next to the key's older ones, all over the index: a bulk update of 10,000 Records touched
 * ~10,000 pages once the trail held a hundred of them (measured: 15 ms for the first, 55 ms for
 * the thirtieth). A Record's history walks its chain (a recursive query, one probe per entry).
 *
 * Chains link changes, not outcomes: an outcome's keys (an upload's, or an update's Records when
 * the upstream named them) join the chain at the change it completes, which may be older than
 * the key's newest change when requests overlap; such a change is spliced in at its place.
 *
 * An entry with more than INLINE_KEYS keys is linked after its append, not in it: its append only
 * notes it in `audit_key_pending`, and `linkPending` links its keys a slice at a time in later
 * transactions (sqlite-audit-log.ts runs them when the event loop is free). Linking 10,000 keys
 * cost 12 ms, twice the bulk update it records; the entry itself, with every before-image, is
 * still written and hashed before the answer. Until its keys are linked, a history looks them up
 * in the pending entries' own keys (`chainSql`), so it is never missing a change.
 */
import type Database from "better-sqlite3";

export const KEY_CHAINS_SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_key_last (resource TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (resource, key)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS audit_key_last_key ON audit_key_last(key);
CREATE TABLE IF NOT EXISTS audit_key_link (seq INTEGER NOT NULL, key TEXT NOT NULL, prev INTEGER, PRIMARY KEY (seq, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS audit_key_pending (seq INTEGER PRIMARY KEY, resource TEXT NOT NULL, change INTEGER NOT NULL, done INTEGER NOT NULL DEFAULT 0);
`;

/** Entries with more keys than this are linked after their append, in slices of LINK_SLICE keys. */
export const INLINE_KEYS = 100;
export const LINK_SLICE = 1_000;
/** A Record's history finds an entry by at most this many of its keys (the before-images' limit). */
export const LINKED_KEYS_MAX = 10_000;

/**
 * The seqs of every change that touched `key` (in `resource`, or in any when null), as SQL for
 * `seq IN (…)`; its parameters are the resource (when given) and the key, twice over.
 */
export function chainSql(withResource: boolean): string {
  const start = withResource ? "SELECT seq, key FROM audit_key_last WHERE resource = ? AND key = ?" : "SELECT seq, key FROM audit_key_last WHERE key = ?";
  const chain = `WITH RECURSIVE chain(seq, key) AS (${start} UNION ALL SELECT l.prev, l.key FROM audit_key_link l JOIN chain c ON l.seq = c.seq AND l.key = c.key WHERE l.prev IS NOT NULL) SELECT seq FROM chain`;
  // Entries whose keys are not all linked yet: their own keys (a few entries, read whole).
  const pending = `SELECT p.change FROM audit_key_pending p JOIN audit a ON a.seq = p.seq, json_each(a.keys) j WHERE ${withResource ? "p.resource = ? AND " : ""}j.value = ?`;
  return `${chain} UNION ${pending}`;
}

/** What linking runs for each key of a change (parameters: see `linkNow`); exported so that their plans can be checked. */
export const LINK_SQL = {
  // Keys whose newest change is newer than this one: spliced in one by one (rare: overlapping
  // requests). CROSS JOIN keeps the change's keys the outer loop (SQLite's rule for it): with a
  // plain JOIN the planner, which cannot tell how few keys json_each holds, walked every key of
  // the resource instead, so a link's cost grew with the table's history (200 µs a single update
  // at 5,000 keys, against 4 µs).
  later: "SELECT j.value AS key, l.seq AS last FROM json_each(?) j CROSS JOIN audit_key_last l ON l.resource = ? AND l.key = j.value WHERE l.seq > ?",
  append:
    "INSERT OR IGNORE INTO audit_key_link (seq, key, prev) SELECT ?, j.value, l.seq FROM json_each(?) j LEFT JOIN audit_key_last l ON l.resource = ? AND l.key = j.value WHERE l.seq IS NULL OR l.seq < ?",
  newest:
    "INSERT INTO audit_key_last (resource, key, seq) SELECT ?, value, ? FROM json_each(?) WHERE true ON CONFLICT (resource, key) DO UPDATE SET seq = excluded.seq WHERE excluded.seq > audit_key_last.seq",
} as const;

export interface KeyChains {
  /**
   * Adds change `seq` to the chains of `count` keys (`keysJson`, a JSON array) in `resource`,
   * inside the append's transaction of entry `entrySeq`: at once for a few keys, else noted as
   * pending for `linkPending` (which reads the entry's own keys, the first LINKED_KEYS_MAX).
   */
  link(resource: string, seq: number, keysJson: string, count: number, entrySeq: number): void;
  /** Links the next slice of a pending entry's keys (inside a write transaction); false when none is pending. */
  linkPending(): boolean;
  /** Whether some entry's keys are not all linked. */
  hasPending(): boolean;
  /** Retention: forgets every link and newest change up to `seq`; chains end where their links went. */
  dropUpTo(seq: number): void;
  /**
   * Whether the chains are exactly what the entries say (every linked key of every change, each
   * link pointing at the key's change before it, each key's newest change): undefined, or the
   * first thing wrong. Keys of entries still pending are left out.
   */
  problem(): string | undefined;
}

export function openKeyChains(db: Database.Database): KeyChains {
  db.exec(KEY_CHAINS_SCHEMA);
  migrateFlatIndex(db);
  const later = db.prepare<[string, string, number], { key: string; last: number }>(LINK_SQL.later);
  const append = db.prepare(LINK_SQL.append);
  const newest = db.prepare(LINK_SQL.newest);
  const prevOf = db.prepare<[number, string], { prev: number | null }>("SELECT prev FROM audit_key_link WHERE seq = ? AND key = ?");
  const setPrev = db.prepare("UPDATE audit_key_link SET prev = ? WHERE seq = ? AND key = ?");
  const insertLink = db.prepare("INSERT OR IGNORE INTO audit_key_link (seq, key, prev) VALUES (?, ?, ?)");
  const notePending = db.prepare("INSERT OR IGNORE INTO audit_key_pending (seq, resource, change) VALUES (?, ?, ?)");
  const oldestPending = db.prepare<[], { seq: number; resource: string; change: number; done: number }>("SELECT seq, resource, change, done FROM audit_key_pending ORDER BY seq LIMIT 1");
  const keysOf = db.prepare<[number], string>("SELECT keys FROM audit WHERE seq = ?").pluck();
  // The keys of the entry being linked, parsed once for all its slices.
  let current: { seq: number; keys: string[] } | undefined;
  const advance = db.prepare("UPDATE audit_key_pending SET done = ? WHERE seq = ?");
  const finished = db.prepare("DELETE FROM audit_key_pending WHERE seq = ?");
  const anyPending = db.prepare("SELECT 1 FROM audit_key_pending LIMIT 1").pluck();
  function linkNow(resource: string, seq: number, keysJson: string) {
    for (const { key, last } of later.all(keysJson, resource, seq)) {
      let at = last;
      for (;;) {
        const prev = prevOf.get(at, key)?.prev ?? null;
        if (prev === seq) break; // already in the chain
        if (prev === null || prev < seq) {
          insertLink.run(seq, key, prev);
          setPrev.run(seq, at, key);
          break;
        }
        at = prev;
      }
    }
    append.run(seq, keysJson, resource, seq);
    newest.run(resource, seq, keysJson);
  }
  return {
    link(resource, seq, keysJson, count, entrySeq) {
      if (count === 0) return;
      if (count > INLINE_KEYS) notePending.run(entrySeq, resource, seq);
      else linkNow(resource, seq, keysJson);
    },
    linkPending() {
      const p = oldestPending.get();
      if (!p) return false;
      if (current?.seq !== p.seq) current = { seq: p.seq, keys: JSON.parse(keysOf.get(p.seq) ?? "[]") as string[] };
      const end = Math.min(p.done + LINK_SLICE, current.keys.length, LINKED_KEYS_MAX);
      if (end > p.done) linkNow(p.resource, p.change, JSON.stringify(current.keys.slice(p.done, end)));
      if (end >= Math.min(current.keys.length, LINKED_KEYS_MAX)) {
        finished.run(p.seq);
        current = undefined;
      } else advance.run(end, p.seq);
      return true;
    },
    hasPending() {
      return anyPending.get() !== undefined;
    },
    problem() {
      // What the entries say: every (change, key) of the first LINKED_KEYS_MAX keys of each entry
      // in a resource, the change being the one an outcome completes; its key's previous change.
      // A change retention dropped is not expected, though its outcome (newer) may still be kept.
      const expected = `SELECT resource, key, change, LAG(change) OVER (PARTITION BY resource, key ORDER BY change) AS prev FROM (
        SELECT DISTINCT a.resource, j.value AS key, CASE WHEN a.kind = 'outcome' THEN a.ref ELSE a.seq END AS change
        FROM audit a, json_each(a.keys) j
        WHERE a.resource IS NOT NULL AND CAST(j.key AS INTEGER) < ${LINKED_KEYS_MAX}
          AND a.seq NOT IN (SELECT seq FROM audit_key_pending) AND a.seq > (SELECT seq FROM audit_checkpoint WHERE id = 1))
        WHERE change > (SELECT seq FROM audit_checkpoint WHERE id = 1)`;
      const missing = db.prepare<[], { key: string; change: number }>(`SELECT e.key, e.change FROM (${expected}) e LEFT JOIN audit_key_link l ON l.seq = e.change AND l.key = e.key WHERE l.seq IS NULL OR (e.prev IS NOT NULL AND l.prev IS NOT e.prev) LIMIT 1`).get();
      if (missing) return `the history of "${missing.key}" does not list change ${missing.change} where its entries put it`;
      const extra = db.prepare<[], { key: string; seq: number }>(`SELECT l.key, l.seq FROM audit_key_link l LEFT JOIN (${expected}) e ON e.change = l.seq AND e.key = l.key WHERE e.change IS NULL AND l.seq NOT IN (SELECT change FROM audit_key_pending) LIMIT 1`).get();
      if (extra) return `the history of "${extra.key}" lists change ${extra.seq}, which no entry gives it`;
      const newestWrong = db.prepare<[], { key: string }>(`SELECT e.key FROM (SELECT resource, key, MAX(change) AS change FROM (${expected}) GROUP BY resource, key) e LEFT JOIN audit_key_last l ON l.resource = e.resource AND l.key = e.key WHERE l.seq IS NOT e.change AND NOT EXISTS (SELECT 1 FROM audit_key_pending p WHERE p.resource = e.resource AND p.change > e.change) LIMIT 1`).get();
      if (newestWrong) return `the history of "${newestWrong.key}" does not start at its newest change`;
      return undefined;
    },
    dropUpTo(seq) {
      db.prepare("DELETE FROM audit_key_pending WHERE seq <= ?").run(seq);
      db.prepare("DELETE FROM audit_key_link WHERE seq <= ?").run(seq);
      db.prepare("DELETE FROM audit_key_last WHERE seq <= ?").run(seq);
    },
  };
}

/** Trails written before the chains had one flat (resource, key, seq) index: turned into chains once. */
function migrateFlatIndex(db: Database.Database): void {
  const flat = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'audit_keys'").get();
  if (!flat) return;
  db.transaction(() => {
    const targets = "SELECT DISTINCT k.resource, k.key, CASE WHEN a.kind = 'outcome' THEN a.ref ELSE a.seq END AS t FROM audit_keys k JOIN audit a ON a.seq = k.seq";
    db.exec(`INSERT OR IGNORE INTO audit_key_link (seq, key, prev) SELECT t, key, LAG(t) OVER (PARTITION BY resource, key ORDER BY t) FROM (${targets})`);
    db.exec(`INSERT OR REPLACE INTO audit_key_last (resource, key, seq) SELECT resource, key, MAX(t) FROM (${targets}) GROUP BY resource, key`);
    db.exec("DROP TABLE audit_keys");
  }).immediate();
}
