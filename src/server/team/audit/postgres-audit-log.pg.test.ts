/**
 * The PostgreSQL trail's history index check (what `verify` runs after the chain) for the list
 * of changes past the before-images' limit, which every Record's history of their table shows:
 * intact through retention, and a row removed or forged is named.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../service/engines/postgres/testing/test-database";
import type { AuditLog } from "./audit-log";
import { openPostgresAuditLog } from "./postgres-audit-log";
import { EMPLOYEES, newEntry, retentionWaitsForChangesUnderWay } from "../testing/audit-entries";

const T = EMPLOYEES;
let db: TestDatabase;
let log: AuditLog;
beforeAll(async () => {
  db = await createTestDatabase(inject("pgAdminUrl"));
  log = await openPostgresAuditLog(db.url);
}, 60_000);
afterAll(async () => {
  await log?.close();
  await db?.drop();
});

const entry = newEntry;

it("the list of changes past the before-images' limit is checked: one removed, one forged, each named; retention keeps it intact", async () => {
  const old = Date.now() - 10 * 86_400_000;
  const early = await log.append(entry({ at: old }));
  await log.append(entry({ kind: "outcome", ref: early.seq, keys: ["K"], detail: { beforeImagesOmitted: 50 } }));
  const big = await log.append(entry({}));
  await log.append(entry({ kind: "outcome", ref: big.seq, keys: ["K", "J"], detail: { beforeImagesOmitted: 7 } }));
  const small = await log.append(entry({ keys: ["J"] }));
  expect(await log.historyIndexProblem()).toBeUndefined();
  expect(await log.dropOlderThan(Date.now() - 86_400_000)).toBe(1);
  expect(await log.historyIndexProblem()).toBeUndefined();
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    await c.query("DELETE FROM bb_audit_partial WHERE change = $1", [big.seq]);
    expect(await log.historyIndexProblem()).toBe(`the histories of ${T} do not list entry ${big.seq}, a change that does not name every Record it changed (past the 10,000 before-images, an import's added Records, or a change whose answer never came back)`);
    await c.query("INSERT INTO bb_audit_partial (resource, change) VALUES ($1, $2)", [T, big.seq]);
    expect(await log.historyIndexProblem()).toBeUndefined();
    await c.query("INSERT INTO bb_audit_partial (resource, change) VALUES ($1, $2)", [T, small.seq]);
    expect(await log.historyIndexProblem()).toMatch(new RegExp(`list entry ${small.seq} as a change that does not name every Record it changed, which no entry says`));
  } finally {
    await c.end();
  }
});

it("retention stops before a change still under way (no outcome yet, or a job still running), and goes on once it ended", async () => {
  await retentionWaitsForChangesUnderWay(log);
});
