/** The plan cache reuses SQL text only: results and errors on a hit equal those of a cold store. */
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
let warm: SqlRecordStore;
/** A second store over the same database: same data, empty caches. */
const cold = () => SqlRecordStore.open(engine);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-plan-"));
  engine = await openEngine({ ...parseServiceConfig([], {}), dataDir: dir });
  warm = await SqlRecordStore.open(engine);
  await seedSampleData(warm);
});
afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const c = (key: string, operator: string, value?: unknown) => ({ key, operator, value });
const pairs: [string, QueryBodyInput, QueryBodyInput][] = [
  ["new values", { filter: { and: [c("age", "greaterThan", 40), c("city", "contains", "a")] }, limit: 5 },
    { filter: { and: [c("age", "greaterThan", "60"), c("city", "contains", "SÃO")] }, limit: 7, skip: 3 }],
  ["addtionalFilter", { filter: { or: [c("country", "equal", "China")] }, addtionalFilter: { and: [c("bonus", "lessThan", 100)] } },
    { filter: { or: [c("country", "equal", "Brazil")] }, addtionalFilter: { and: [c("bonus", "lessThan", 5000)] } }],
  ["a join", { join: [{ targetTable: "departments", rules: [{ tableKey: "department", targetTableKey: "department" }] }], filter: { and: [c("departments.budget", "greaterThan", 1)] } },
    { join: [{ targetTable: "departments", rules: [{ tableKey: "department", targetTableKey: "department" }] }], filter: { and: [c("departments.budget", "greaterThan", 2_000_000)] } }],
  ["a refused value on a hit", { filter: { and: [c("age", "equal", 30)] } }, { filter: { and: [c("age", "equal", "thirty")] } }],
];

it.each(pairs)("answers a repeated shape with %s as a cold store does", async (_name, first, second) => {
  const employees = (await warm.table("demo", "employees"))!;
  const before = warm.cachedPlans;
  await warm.query(employees, first);
  expect(warm.cachedPlans).toBe(before + 1);
  const hit = await warm.query(employees, second);
  expect(warm.cachedPlans).toBe(before + 1);
  const fresh = await cold();
  expect(hit).toEqual(await fresh.query((await fresh.table("demo", "employees"))!, second));
});

it("tells null, absent and present values apart", async () => {
  const employees = (await warm.table("demo", "employees"))!;
  const a = await warm.query(employees, { filter: { and: [c("exit_date", "equal", "2001-05-05")] }, limit: 0 });
  const b = await warm.query(employees, { filter: { and: [c("exit_date", "equal", null)] }, limit: 0 });
  expect(a.ok && b.ok && a.value.count !== b.value.count).toBe(true);
  expect(b.ok && b.value.count).toBeGreaterThan(0);
});
