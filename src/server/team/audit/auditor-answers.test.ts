/**
 * What the trail makes of an update's answer (auditor.ts `finish`), with a real trail on disk:
 * the service's before-images (rows, as the engine wrote them), an older service's (one object
 * per Record), and an answer it cannot read, which is still kept from the client and marked.
 * The upstream is never asked anything here: with the extension, the answer carries it all.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import type { Upstream } from "../../proxy/forward";
import { present } from "./audit-api";
import type { AuditLog } from "./audit-log";
import { createAuditor, undoOf } from "./auditor";
import { openSqliteAuditLog } from "./sqlite-audit-log";

let log: AuditLog | undefined;
let dir: string | undefined;
afterEach(async () => {
  await log?.close();
  log = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const unused = new Proxy({}, { get: () => () => Promise.reject(new Error("the upstream is not asked")) }) as Upstream;

async function updateAnswered(upstreamAnswer: unknown, matched = "2", undo?: string) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-answers-"));
  log = openSqliteAuditLog(dir);
  const auditor = createAuditor({ log, upstream: unused, tableOf: async () => ({ primaryKey: "id", beforeImages: true }) });
  const pending = await auditor.beforeChange({
    actor: { kind: "single-user", email: "single-user", name: "Single user", role: "admin", grants: [] } as never,
    address: "127.0.0.1",
    method: "POST",
    endpoint: "update",
    upstreamPath: "/v0/record/demo/t/update",
    target: "demo/t",
    body: Buffer.from(JSON.stringify({ filter: { and: [] }, values: [{ key: "city", value: "Porto" }] })),
    undoOf: undoOf(undo),
  });
  expect(pending.upstreamHeaders).toEqual({ "x-baseboard-before-images": "10000" });
  const { answer } = await pending.finish(200, { "x-matched-count": matched }, Buffer.from(JSON.stringify(upstreamAnswer)));
  const [entry] = await log.list({ limit: 1 });
  const outcome = (await log.outcomesOf([entry.seq])).get(entry.seq);
  return { client: JSON.parse(answer.toString()), shown: present(entry, outcome), outcome: JSON.parse(outcome!.detailJson) };
}

const changes = [
  { key: "A", before: { city: "Lisbon" }, after: { city: "Porto" } },
  { key: 7, before: { city: null }, after: { city: "Porto" } },
];

it("reads the service's rows, keeps them from the client, and shows each Record's change", async () => {
  const r = await updateAnswered({ message: "ok", before: { fields: ["id", "city"], rows: [["A", "Lisbon"], [7, null], ["B", "Porto"]] } });
  expect(r.client).toEqual({ message: "ok" });
  expect(r.shown).toMatchObject({ keys: ["A", "7", "B"], keyCount: 3, count: 2, changes });
});

it("reads an older service's objects the same way", async () => {
  const r = await updateAnswered({ message: "ok", before: [{ id: "A", city: "Lisbon" }, { id: 7, city: null }, { id: "B", city: "Porto" }] });
  expect(r.client).toEqual({ message: "ok" });
  expect(r.shown).toMatchObject({ keys: ["A", "7", "B"], changes });
});

it("an answer it cannot read is still kept from the client, and the entry says so", async () => {
  const r = await updateAnswered({ message: "ok", before: "garbled" });
  expect(r.client).toEqual({ message: "ok" });
  expect(r.outcome).toMatchObject({ outcome: "applied", count: 2, beforeImagesUnreadable: true });
  expect(r.shown.changes).toBeUndefined();
});

it("a change past the before-images' limit is in the history of every Record of the table, marked partial where it names it not", async () => {
  // 10,005 matched, images for 3 (as if the limit were 3): the other 10,002 are not named.
  const r = await updateAnswered({ message: "ok", before: { fields: ["id", "city"], rows: [["A", "Lisbon"], [7, null], ["B", "Porto"]] } }, "10005");
  expect(r.outcome).toMatchObject({ beforeImagesOmitted: 10_002 });
  const named = await log!.list({ resource: "table:demo/t", key: "A", limit: 10 });
  const unnamed = await log!.list({ resource: "table:demo/t", key: "Z", limit: 10 });
  const other = await log!.list({ resource: "table:demo/other", key: "Z", limit: 10 });
  expect(named).toHaveLength(1);
  expect(unnamed.map((e) => e.seq)).toEqual(named.map((e) => e.seq));
  expect(other).toHaveLength(0);
  const outcome = (await log!.outcomesOf([unnamed[0].seq])).get(unnamed[0].seq);
  expect(present(unnamed[0], outcome, "Z")).toMatchObject({ partial: true, beforeImagesOmitted: 10_002 });
  expect(present(named[0], outcome, "A").partial).toBeUndefined();
});

it("an Undo's request is recorded as one, and of what; a mark that is not one is ignored", async () => {
  const r = await updateAnswered({ message: "ok", before: { fields: ["id", "city"], rows: [["A", "Lisbon"]] } }, "1", encodeURIComponent("undo: Import café.csv"));
  expect(r.shown.undoOf).toBe("undo: Import café.csv");
  expect(undoOf("redo%3A%20Bulk%20set%20city")).toBe("redo: Bulk set city");
  for (const notOne of [undefined, "anything", "%E0%A4%A", "undo:", ["undo: x"]]) expect(undoOf(notOne as never)).toBeUndefined();
  expect(undoOf(encodeURIComponent(`undo: ${"x".repeat(500)}`))?.length).toBe(200);
});
