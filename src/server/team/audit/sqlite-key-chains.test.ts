/**
 * The embedded trail's per-key chains (sqlite-key-chains.ts) on a real SQLite file: a Record's
 * history newest first with its cursor, outcomes that join the chain of an older change, keys in
 * any resource, retention, and a trail written with the old flat index turned into chains.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { AuditLog } from "./audit-log";
import { openSqliteAuditLog } from "./sqlite-audit-log";
import { chainSql, INLINE_KEYS, LINK_SLICE, LINK_SQL } from "./sqlite-key-chains";
import { EMPLOYEES, newEntry } from "../testing/audit-entries";

const T = EMPLOYEES;
let open: AuditLog[] = [];
const dirs = new Set<string>();
afterEach(async () => {
  for (const l of open) await l.close();
  open = [];
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs.clear();
});
function fresh(dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-chains-"))) {
  dirs.add(dir);
  const log = openSqliteAuditLog(dir);
  open.push(log);
  return { log, dir };
}
const entry = newEntry;
const history = async (log: AuditLog, key: string, more: { beforeSeq?: number; limit?: number; resource?: string | null } = {}) =>
  (await log.list({ resource: more.resource === null ? undefined : (more.resource ?? T), key, beforeSeq: more.beforeSeq, limit: more.limit ?? 100 })).map((e) => e.seq);

describe("key chains", () => {
  it("lists the changes of one key newest first, across bulk entries, with the cursor", async () => {
    const { log } = fresh();
    const bulk = Array.from({ length: 500 }, (_, i) => `E${i}`);
    const seqs: number[] = [];
    for (let i = 0; i < 5; i++) {
      seqs.push((await log.append(entry({ keys: bulk }))).seq);
      await log.append(entry({ keys: [`E${i}`] })); // a single change of another key in between
    }
    await log.append(entry({ keys: ["E7"], resource: "table:demo/other" }));
    expect(await history(log, "E499")).toEqual([...seqs].reverse());
    expect(await history(log, "E2")).toEqual([seqs[4], seqs[3], seqs[2] + 1, seqs[2], seqs[1], seqs[0]]);
    expect(await history(log, "E499", { beforeSeq: seqs[3], limit: 2 })).toEqual([seqs[2], seqs[1]]);
    expect(await history(log, "E7", { resource: null })).toEqual([11, ...[...seqs].reverse()]);
    expect(await history(log, "nobody")).toEqual([]);
  });

  it("an outcome's keys join the chain at the change it completes, also when a later change came first", async () => {
    const { log } = fresh();
    const a = await log.append(entry({ keys: [] })); // change A: its Records are known only from its answer
    const b = await log.append(entry({ keys: ["K1"] })); // change B, made meanwhile
    const c = await log.append(entry({ keys: ["K1", "K2"] }));
    await log.append(entry({ kind: "outcome", ref: b.seq, keys: ["K1"] })); // already in the chain: no second link
    await log.append(entry({ kind: "outcome", ref: a.seq, keys: ["K1", "K2", "K1"] }));
    expect(await history(log, "K1")).toEqual([c.seq, b.seq, a.seq]);
    expect(await history(log, "K2")).toEqual([c.seq, a.seq]);
    const d = await log.append(entry({ keys: [] }));
    await log.append(entry({ kind: "outcome", ref: d.seq, keys: ["K2"] }));
    expect(await history(log, "K2")).toEqual([d.seq, c.seq, a.seq]);
  });

  it("links a bulk entry's keys after its append, a slice at a time; histories find them before and after", async () => {
    const { log, dir } = fresh();
    const pending = () => {
      const db = new Database(path.join(dir, "audit.sqlite"), { readonly: true });
      try {
        return db.prepare("SELECT count(*) FROM audit_key_pending").pluck().get() as number;
      } finally {
        db.close();
      }
    };
    const many = Array.from({ length: LINK_SLICE * 2 + 7 }, (_, i) => `B${i}`);
    const first = await log.append(entry({ keys: ["B5", "B2001"] }));
    const bulk = await log.append(entry({ keys: many }));
    // Appended after the bulk one but linked before it: the bulk change is spliced in under it.
    const after = await log.append(entry({ keys: ["B2001"] }));
    const outcome = await log.append(entry({ kind: "outcome", ref: first.seq, keys: many.slice(0, INLINE_KEYS + 1) }));
    expect(pending()).toBe(2);
    const seen = { B5: await history(log, "B5"), B2001: await history(log, "B2001"), B2004: await history(log, "B2004") };
    expect(seen).toEqual({ B5: [bulk.seq, first.seq], B2001: [after.seq, bulk.seq, first.seq], B2004: [bulk.seq] });
    await log.linked?.();
    expect(pending()).toBe(0);
    expect({ B5: await history(log, "B5"), B2001: await history(log, "B2001"), B2004: await history(log, "B2004") }).toEqual(seen);
    expect(await history(log, "B99")).toEqual([bulk.seq, first.seq]); // from the outcome of `first`
    expect(outcome.seq).toBeGreaterThan(after.seq);
    // Pending keys left by a stopped process are linked by the next one to open the trail.
    const again = await log.append(entry({ keys: many }));
    await log.close();
    open = [];
    expect(pending()).toBe(1);
    const reopened = fresh(dir).log;
    expect(await history(reopened, "B1500")).toEqual([again.seq, bulk.seq]);
    await reopened.linked?.();
    expect(pending()).toBe(0);
    expect(await history(reopened, "B1500")).toEqual([again.seq, bulk.seq]);
  });

  it("retention drops the old links; the chain ends where they went", async () => {
    const { log } = fresh();
    const old = Date.now() - 10 * 86_400_000;
    await log.append(entry({ keys: ["K"], at: old }));
    await log.append(entry({ keys: ["K", "J"], at: old }));
    const kept = await log.append(entry({ keys: ["K"] }));
    expect(await log.dropOlderThan(Date.now() - 86_400_000)).toBe(2);
    expect(await history(log, "K")).toEqual([kept.seq]);
    expect(await history(log, "J")).toEqual([]);
    const next = await log.append(entry({ keys: ["J"] }));
    expect(await history(log, "J")).toEqual([next.seq]);
  });

  it("the history index is checked against the entries: intact through outcomes, bulk linking and retention; a history someone removed is named", async () => {
    const { log, dir } = fresh();
    const old = Date.now() - 10 * 86_400_000;
    await log.append(entry({ keys: ["K"], at: old }));
    const a = await log.append(entry({ keys: [] }));
    await log.append(entry({ keys: ["K", "J"] }));
    await log.append(entry({ kind: "outcome", ref: a.seq, keys: ["K", "L"] }));
    await log.append(entry({ keys: Array.from({ length: INLINE_KEYS + 50 }, (_, i) => `B${i}`) }));
    expect(await log.historyIndexProblem()).toBeUndefined(); // the bulk entry still pending
    await log.linked!();
    expect(await log.historyIndexProblem()).toBeUndefined();
    expect(await log.dropOlderThan(Date.now() - 86_400_000)).toBe(1);
    expect(await log.historyIndexProblem()).toBeUndefined();
    const db = new Database(path.join(dir, "audit.sqlite"));
    try {
      // Someone hides K's history (the chain of entries is untouched).
      db.prepare("DELETE FROM audit_key_link WHERE key = 'K'").run();
      db.prepare("DELETE FROM audit_key_last WHERE key = 'K'").run();
      expect(await log.historyIndexProblem()).toMatch(/history of "K" does not list change/);
    } finally {
      db.close();
    }
  });

  it("the list of changes past the before-images' limit is checked too: one removed, one forged, each named; retention keeps it intact", async () => {
    const { log, dir } = fresh();
    const old = Date.now() - 10 * 86_400_000;
    const early = await log.append(entry({ keys: [], at: old }));
    await log.append(entry({ kind: "outcome", ref: early.seq, keys: ["K"], detail: { beforeImagesOmitted: 50 } }));
    const big = await log.append(entry({ keys: [] }));
    await log.append(entry({ kind: "outcome", ref: big.seq, keys: ["K", "J"], detail: { beforeImagesOmitted: 7 } }));
    const small = await log.append(entry({ keys: ["J"] }));
    expect(await log.historyIndexProblem()).toBeUndefined();
    // Retention between a change and its outcome: the change's row goes with it.
    expect(await log.dropOlderThan(Date.now() - 86_400_000)).toBe(1);
    expect(await log.historyIndexProblem()).toBeUndefined();
    const db = new Database(path.join(dir, "audit.sqlite"));
    try {
      db.prepare("DELETE FROM audit_partial WHERE change = ?").run(big.seq);
      expect(await log.historyIndexProblem()).toBe(`the histories of ${T} do not list entry ${big.seq}, a change that does not name every Record it changed (past the 10,000 before-images, an import's added Records, or a change whose answer never came back)`);
      db.prepare("INSERT INTO audit_partial (resource, change) VALUES (?, ?)").run(T, big.seq);
      expect(await log.historyIndexProblem()).toBeUndefined();
      db.prepare("INSERT INTO audit_partial (resource, change) VALUES (?, ?)").run(T, small.seq);
      expect(await log.historyIndexProblem()).toMatch(new RegExp(`list entry ${small.seq} as a change that does not name every Record it changed, which no entry says`));
    } finally {
      db.close();
    }
  });

  it("turns a trail written with the flat key index into chains when opened", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-chains-old-"));
    const { log } = fresh(dir);
    const s1 = await log.append(entry({ keys: [] }));
    const s2 = await log.append(entry({ keys: ["K"] }));
    const s3 = await log.append(entry({ kind: "outcome", ref: s1.seq, keys: ["K"] }));
    await log.close();
    open = [];
    // Rewrite the key index as the previous version kept it: one row per key per entry.
    const db = new Database(path.join(dir, "audit.sqlite"));
    db.exec("DROP TABLE audit_key_link; DROP TABLE audit_key_last;");
    db.exec("CREATE TABLE audit_keys (resource TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL)");
    db.prepare("INSERT INTO audit_keys VALUES (?, 'K', ?), (?, 'K', ?)").run(T, s2.seq, T, s3.seq);
    db.close();
    const again = fresh(dir).log;
    expect(await history(again, "K")).toEqual([s2.seq, s1.seq]);
    const check = new Database(path.join(dir, "audit.sqlite"), { readonly: true });
    expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'audit_keys'").get()).toBeUndefined();
    check.close();
    const s4 = await again.append(entry({ keys: ["K"] }));
    expect(await history(again, "K")).toEqual([s4.seq, s2.seq, s1.seq]);
  });

  it("links and histories look each key up by its resource and key, not by walking the resource's keys", async () => {
    // A table with a long history: what a single update's link, or a history, costs must not
    // grow with it (the link's splice query walked all 3,000 keys of the resource for each one).
    const { log, dir } = fresh();
    for (let i = 0; i < 30; i++) await log.append(entry({ keys: Array.from({ length: 100 }, (_, k) => `E${i * 100 + k}`) }));
    const db = new Database(path.join(dir, "audit.sqlite"), { readonly: true });
    try {
      const plan = (sql: string, ...args: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail);
      const keys = JSON.stringify(["E5"]);
      // Where each reads the newest changes (audit_key_last; `l` in the link statements).
      const plans = {
        later: { lines: plan(LINK_SQL.later, keys, T, 1), last: /^SEARCH l / },
        append: { lines: plan(LINK_SQL.append, 1, keys, T, 1), last: /^SEARCH l / },
        history: { lines: plan(chainSql(true), T, "E5", T, "E5"), last: /audit_key_last/ },
      };
      for (const [name, { lines, last }] of Object.entries(plans)) {
        const reads = lines.filter((l) => last.test(l));
        expect(reads.length, `${name}: ${lines.join(" | ")}`).toBeGreaterThan(0);
        for (const l of reads) expect(l, `${name}: ${lines.join(" | ")}`).toMatch(/\(resource=\? AND key=\?\)/);
      }
      // The keys (json_each) are the outer loop where they are joined to the newest changes.
      expect(plans.later.lines[0]).toMatch(/^SCAN j/);
    } finally {
      db.close();
    }
  });
});
