/**
 * Counts are reused across pages of one filter until a table it reads changes (issue 10 item
 * 3): a next page runs no count query, and any write to the table (or to a joined one) makes
 * the next page count again, with the new number.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { QueryBodyInput } from "../../../shared/records";
import { parseServiceConfig } from "../config";
import type { SqlEngine } from "../engines/engine";
import { openEngine } from "../engines/open";
import { seedSampleData } from "./seed";
import { SqlRecordStore } from "./store";

let dir: string;
let engine: SqlEngine;
let store: SqlRecordStore;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-count-"));
  engine = await openEngine({ ...parseServiceConfig([], {}), dataDir: dir });
  store = await SqlRecordStore.open(engine);
  await seedSampleData(store);
});
afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const c = (key: string, operator: string, value?: unknown) => ({ key, operator, value });

async function page(body: QueryBodyInput): Promise<{ count: number; ran: boolean; ids: unknown[] }> {
  const before = store.countsRun;
  const r = await store.query((await store.table("demo", "employees"))!, body);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return { count: r.value.count, ran: store.countsRun > before, ids: r.value.items.map((i) => i.employee_id) };
}

it("reuses a count across pages of one filter, and counts again after a write", async () => {
  const filter = { and: [c("age", "greaterThan", 30), c("city", "contains", "a")] };
  const first = await page({ filter, limit: 10 });
  expect(first.ran).toBe(true);
  expect(first.count).toBeGreaterThan(20);
  const second = await page({ filter, limit: 10, skip: 10 });
  expect(second).toMatchObject({ count: first.count, ran: false });
  expect(second.ids).not.toEqual(first.ids);
  // Another sort is the same set of Records: the count is the same one.
  expect(await page({ filter, sort: [{ key: "age", direction: "descending" }], limit: 5, skip: 20 })).toMatchObject({ count: first.count, ran: false });
  // Another filter counts for itself.
  expect((await page({ filter: { and: [c("age", "greaterThan", 31), c("city", "contains", "a")] }, limit: 10 })).ran).toBe(true);

  // A write that takes one Record out of the set: the next page counts again.
  const employees = (await store.table("demo", "employees"))!;
  const updated = await store.update(employees, { values: [{ key: "age", value: 18 }], filter: { and: [c("employee_id", "equal", first.ids[0])] } });
  expect(updated.ok && updated.value.matched).toBe(1);
  expect(await page({ filter, limit: 10, skip: 10 })).toMatchObject({ count: first.count - 1, ran: true });
  expect(await page({ filter, limit: 10, skip: 20 })).toMatchObject({ count: first.count - 1, ran: false });
});

it("counts a joined query again when the joined table changes", async () => {
  const join = [{ targetTable: "departments", rules: [{ tableKey: "department", targetTableKey: "department" }] }];
  const filter = { and: [c("departments.budget", "greaterThan", 1)] };
  const first = await page({ join, filter, limit: 5 });
  expect(first.ran).toBe(true);
  expect(await page({ join, filter, limit: 5, skip: 5 })).toMatchObject({ count: first.count, ran: false });
  const departments = (await store.table("demo", "departments"))!;
  const r = await store.update(departments, { values: [{ key: "budget", value: 0 }], filter: { and: [] } });
  expect(r.ok).toBe(true);
  expect(await page({ join, filter, limit: 5, skip: 5 })).toMatchObject({ count: 0, ran: true });
});
