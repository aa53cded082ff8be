/** Entries for tests of the trail's stores: an update of demo/employees by ada, unless told otherwise. */
import { expect } from "vitest";
import type { NewAuditEntry } from "../audit/audit-entry";
import type { AuditLog } from "../audit/audit-log";

export const EMPLOYEES = "table:demo/employees";

export const newEntry = (e: Partial<NewAuditEntry>): NewAuditEntry => ({
  at: Date.now(),
  actorEmail: "ada@example.com",
  actorKind: "person",
  address: "127.0.0.1",
  kind: "update",
  endpoint: "POST /v0/record/demo/employees/update",
  resource: EMPLOYEES,
  keys: [],
  detail: {},
  ...e,
});

/**
 * Retention against changes under way, for either store: it stops before a request whose outcome
 * is still to come (none yet, or a job still running), and goes on once they have ended.
 */
export async function retentionWaitsForChangesUnderWay(log: AuditLog): Promise<void> {
  const now = Date.now();
  const old = await log.append(newEntry({ at: now - 10 * 86_400_000, detail: { outcome: "pending" } }));
  await log.append(newEntry({ at: now - 10 * 86_400_000 + 1, kind: "outcome", ref: old.seq, detail: { status: 200, outcome: "applied" } }));
  // A proxy that stopped mid-change two days ago: its request holds nothing back.
  await log.append(newEntry({ at: now - 2 * 86_400_000, kind: "upload", detail: { outcome: "pending" } }));
  const slow = await log.append(newEntry({ at: now - 2000, kind: "upload", detail: { outcome: "pending" } }));
  const job = await log.append(newEntry({ at: now - 1000, kind: "storage-job", detail: { action: "move", outcome: "pending" } }));
  await log.append(newEntry({ at: now - 900, kind: "outcome", ref: job.seq, detail: { status: 202, outcome: "applied", job: { id: "j", state: "running" } } }));
  // Everything is older than the cut: only what comes before the slow upload goes (and any entries before these).
  expect(await log.dropOlderThan(now + 1)).toBeGreaterThanOrEqual(3);
  expect((await log.checkpoint()).seq).toBe(slow.seq - 1);
  await log.append(newEntry({ kind: "outcome", ref: slow.seq, detail: { status: 200, outcome: "applied" } }));
  // The job still runs: the cut stops before it. (A cut with a fraction of a millisecond, as a
  // retention of 0.3 days makes: review 54a #1, PostgreSQL's bigint refused it.)
  const before = Date.now() + 1.5;
  expect(await log.dropOlderThan(before)).toBe(1);
  expect((await log.checkpoint()).seq).toBe(job.seq - 1);
  await log.append(newEntry({ kind: "outcome", ref: job.seq, detail: { status: 200, outcome: "applied", job: { id: "j", state: "done" } } }));
  expect(await log.dropOlderThan(Date.now() + 1)).toBe(4);
}
