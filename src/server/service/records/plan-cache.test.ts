/** The plan cache reuses SQL text only: results and errors on a hit equal those of a cold store. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueryBodyInput } from "../../../shared/records";
import { parseServiceConfig } from "../config";
import type { SqlEngine } from "../engines/engine";
import { openEngine } from "../engines/open";
import { seedSampleData } from "./seed";
import { SizedLruCache } from "./plan-cache";
import { PLAN_CACHE_BYTES } from "./compile-read";
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
  const before = warm.compiler.cachedPlans;
  await warm.query(employees, first);
  expect(warm.compiler.cachedPlans).toBe(before + 1);
  const hit = await warm.query(employees, second);
  expect(warm.compiler.cachedPlans).toBe(before + 1);
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

it("keeps the plans it caches within PLAN_CACHE_BYTES however large the filters", async () => {
  const employees = (await warm.table("demo", "employees"))!;
  // Twenty shapes of ~3,000 conditions: ~0.25 MB of SQL each, 5 MB in all unbounded. Compiled
  // (the cache is the compiler's); the first and the last also run, through the same path.
  for (let s = 0; s < 20; s++) {
    const conditions = Array.from({ length: 3000 + s }, (_, i) => c("age", i % 2 ? "equal" : "notEqual", i));
    const body = { filter: { or: conditions }, limit: 1 };
    if (s === 0 || s === 19) expect((await warm.query(employees, body)).ok).toBe(true);
    else expect(warm.compiler.compileRead(employees, body).ok).toBe(true);
    expect(warm.compiler.cachedPlanBytes).toBeLessThanOrEqual(PLAN_CACHE_BYTES);
  }
  expect(warm.compiler.cachedPlanBytes).toBeGreaterThan(PLAN_CACHE_BYTES / 2);
  // Small shapes are still cached next to them.
  const before = warm.compiler.cachedPlans;
  await warm.query(employees, { filter: { and: [c("city", "equal", "Austin"), c("age", "lessThan", 33)] } });
  expect(warm.compiler.cachedPlans).toBeGreaterThanOrEqual(before);
  expect(warm.compiler.cachedPlanBytes).toBeLessThanOrEqual(PLAN_CACHE_BYTES);
}, 60_000);

it("counts a primary-key lookup from its page, and agrees with the count query", async () => {
  const employees = (await warm.table("demo", "employees"))!;
  const fresh = await cold();
  const table = (await fresh.table("demo", "employees"))!;
  for (const body of [
    { filter: { and: [c("employee_id", "equal", "E00042")] } },
    { filter: { and: [c("employee_id", "equal", "E99999")] } },
    { filter: { and: [c("employee_id", "equal", "E00042"), c("age", "greaterThan", 200)] } },
    { filter: { and: [c("employee_id", "equal", "E00042")] }, limit: 0 },
    { filter: { and: [c("employee_id", "equal", "E00042")] }, skip: 1 },
    { filter: { or: [c("employee_id", "equal", "E00007")] }, addtionalFilter: { and: [c("age", "greaterThan", 1)] } },
  ] as QueryBodyInput[]) {
    const r = await warm.query(employees, body);
    const compiled = fresh.compiler.compileRead(table, body);
    if (!r.ok || !compiled.ok) throw new Error(JSON.stringify([r, compiled]));
    expect(compiled.value.atMostOne).toBe(true);
    const [counted] = await engine.read([compiled.value.count]);
    expect(r.value.count).toBe(Number(counted.rows[0][0]));
  }
});

describe("SizedLruCache", () => {
  it("evicts the least recently used entry past its entry or byte budget, and skips oversized values", () => {
    const cache = new SizedLruCache<string>(3, 100, (v) => v.length);
    cache.set("a", "x".repeat(10));
    cache.set("b", "x".repeat(10));
    cache.set("c", "x".repeat(10));
    cache.get("a");
    cache.set("d", "x".repeat(10));
    expect([cache.get("a"), cache.get("b")].map(Boolean)).toEqual([true, false]);
    cache.set("e", "x".repeat(20));
    cache.set("f", "x".repeat(20));
    expect(cache.bytes).toBeLessThanOrEqual(100);
    cache.set("g", "x".repeat(30));
    expect(cache.get("g")).toBeUndefined();
    expect(cache.bytes).toBeLessThanOrEqual(100);
  });
});
