/**
 * A sorted first page of many matches read within a bound on its first sort term
 * (bounded-top-n.ts, store.ts boundedPage), on the embedded engine whose top-N it helps: random
 * sorts over Fields with nulls and many equal values, random filters, pages anywhere in the
 * first thousand rows, compared with an in-memory evaluation; the bound is used (counted), and
 * small matches, deep pages and joins go the plain way. Plus the rules themselves.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueryBodyInput, RecordRow } from "../../../shared/records";
import { parseServiceConfig } from "../config";
import type { SqlEngine } from "../engines/engine";
import { openEngine } from "../engines/open";
import { BOUND_MAX_END, BOUND_MIN_MATCHES, boundRank, pageRows, samplePercent } from "./bounded-top-n";
import type { StoredTable } from "./registry";
import { SqlRecordStore } from "./store";
import { sortRecords } from "./testing/evaluator";

const ROWS = 60_000;
let dir: string;
let engine: SqlEngine;
let store: SqlRecordStore;
let table: StoredTable;
let all: RecordRow[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bounded-"));
  engine = await openEngine({ ...parseServiceConfig([], {}), dataDir: dir });
  store = await SqlRecordStore.open(engine);
  table = await store.createTable({
    databaseId: "demo",
    slug: "big",
    primaryKey: "id",
    fields: [
      { key: "id", type: "text", nullable: false },
      { key: "n", type: "number", nullable: true },
      { key: "s", type: "text", nullable: true },
      { key: "day", type: "date", nullable: true },
      { key: "x", type: "number", nullable: true },
    ],
  });
  all = [];
  for (let i = 0; i < ROWS; i++) {
    all.push({
      id: `B${String(i).padStart(6, "0")}`,
      // Many equal values and nulls; `x` is unique and follows the row's place (clustered).
      n: i % 11 === 0 ? null : (i * 7919) % 97,
      s: i % 13 === 0 ? null : ["alpha", "Beta", "gamma", "Ünder", "zeta", "émile", "Zoë"][(i * 31) % 7],
      day: i % 5 === 0 ? null : `20${String(10 + ((i * 17) % 14))}-0${1 + (i % 9)}-${String(1 + ((i * 13) % 28)).padStart(2, "0")}`,
      x: i,
    });
  }
  await store.insertRows(table, all);
}, 60_000);
afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function query(body: QueryBodyInput) {
  const r = await store.query(table, body);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

describe("bounded first pages (embedded engine)", () => {
  it("equal the in-memory order under any sort, filter and page, and use the bound", async () => {
    const used = store.bounds.used;
    const unit = fc.record({ key: fc.constantFrom("n", "s", "day", "x", "id"), direction: fc.constantFrom("ascending" as const, "descending" as const) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(unit, { minLength: 1, maxLength: 3 }),
        fc.option(fc.integer({ min: 40, max: 97 }), { nil: undefined }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 200 }),
        async (sort, below, skip, limit) => {
          const filter = below === undefined ? undefined : { or: [{ key: "n", operator: "lessThan", value: below }, { key: "n", operator: "isEmpty" }] };
          const out = await query({ sort, filter, skip, limit });
          const matching = below === undefined ? all : all.filter((r) => r.n === null || (r.n as number) < below);
          expect(out.count).toBe(matching.length);
          expect(out.items).toEqual(sortRecords(matching, sort, "id").slice(skip, skip + limit));
        },
      ),
      { numRuns: 60, seed: 2126 },
    );
    // Most of those pages had enough matches and a short enough end for a bound.
    expect(store.bounds.used - used).toBeGreaterThan(30);
  });

  it("does not bound a page of few matches or a deep page", async () => {
    const before = { ...store.bounds };
    const few = await query({ filter: { and: [{ key: "n", operator: "equal", value: 3 }] }, sort: [{ key: "day", direction: "descending" }], limit: 20 });
    expect(few.count).toBeLessThan(BOUND_MIN_MATCHES);
    const deep = await query({ sort: [{ key: "x", direction: "descending" }], skip: BOUND_MAX_END, limit: 50 });
    expect(deep.items.map((r) => r.x)).toEqual(Array.from({ length: 50 }, (_, i) => ROWS - 1 - BOUND_MAX_END - i));
    expect(store.bounds).toEqual(before);
    // And the next first page of a large match is bounded again, reusing the cached count.
    const counts = store.countsRun;
    const top = await query({ sort: [{ key: "x", direction: "descending" }], limit: 5 });
    expect(top.items.map((r) => r.x)).toEqual([ROWS - 1, ROWS - 2, ROWS - 3, ROWS - 4, ROWS - 5]);
    expect(store.bounds.used + store.bounds.missed).toBe(before.used + before.missed + 1);
    expect(store.countsRun).toBe(counts);
  });

  it("sees a write between two pages: the new value sorts where it belongs", async () => {
    await query({ sort: [{ key: "n", direction: "descending" }], limit: 10 });
    const target = all[123].id as string;
    const r = await store.update(table, { filter: { and: [{ key: "id", operator: "equal", value: target }] }, values: [{ key: "n", value: 1000 }] });
    expect(r.ok).toBe(true);
    all[123] = { ...all[123], n: 1000 };
    const after = await query({ sort: [{ key: "n", direction: "descending" }], limit: 10 });
    expect(after.items[0].id).toBe(target);
    expect(after.items).toEqual(sortRecords(all, [{ key: "n", direction: "descending" }], "id").slice(0, 10));
  });
});

describe("deep pages by their keys' numbers (Dialect.deepPagesByKeys)", () => {
  it("equal the in-memory order under any sort and filter, and are used from deepFrom on", async () => {
    store.deepFrom = 1_000;
    const before = store.deepPages;
    let used = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ key: fc.constantFrom("n", "s", "day", "x", "id"), direction: fc.constantFrom("ascending" as const, "descending" as const) }), { minLength: 0, maxLength: 3 }),
          fc.constantFrom(undefined, 20, 60),
          fc.integer({ min: 1_000, max: 40_000 }),
          fc.integer({ min: 1, max: 60 }),
          async (sort, above, skip, limit) => {
            const filter = above === undefined ? undefined : { or: [{ key: "n", operator: "greaterThan", value: above }, { key: "n", operator: "isEmpty" }] };
            const matching = above === undefined ? all : all.filter((r) => r.n === null || (r.n as number) > above);
            // A page nearer the end is read from the end, unless it is as deep from there too.
            fc.pre(skip + limit / 2 <= matching.length / 2 || matching.length - skip - limit >= 1_000);
            const got = await query({ filter, sort, skip, limit });
            used++;
            expect(got.items).toEqual(sortRecords(matching, sort, "id").slice(skip, skip + limit));
            expect(got.count).toBe(matching.length);
          },
        ),
        { numRuns: 25, seed: 20261126 },
      );
    } finally {
      store.deepFrom = Infinity;
    }
    expect(store.deepPages - before).toBe(used);
    expect(used).toBeGreaterThan(10);
  }, 60_000);
});

describe("a write whose commit is seen before its promise settles", () => {
  it("no page from after it with a count from before it", async () => {
    // The same engine, but each write's promise settles 60 ms after its commit (as on a busy
    // event loop): new reads already see the change while the store has not heard of it.
    const late: SqlEngine = { ...engine, write: async (fn) => {
      const out = await engine.write(fn);
      await new Promise((r) => setTimeout(r, 60));
      return out;
    } };
    const lateStore = await SqlRecordStore.open(late);
    const big = (await lateStore.table("demo", "big"))!;
    const body: QueryBodyInput = { filter: { and: [{ key: "s", operator: "contains", value: "e" }] }, sort: [{ key: "x", direction: "descending" }], limit: 20 };
    const target = all[7].id as string;
    // B000007 does not match yet; the first page is read, its count cached.
    expect(all[7].s).toBe("alpha");
    const first = await lateStore.query(big, body);
    expect(first.ok && first.value.items.some((r) => r.id === target)).toBe(false);
    const was = first.ok ? first.value.count : -1;
    // It now matches, and sorts first: committed at once, settled 60 ms later.
    const writing = lateStore.update(big, { filter: { and: [{ key: "id", operator: "equal", value: target }] }, values: [{ key: "s", value: "eee" }, { key: "x", value: 10_000_000 }] });
    await new Promise((r) => setTimeout(r, 30));
    const during = await lateStore.query(big, body);
    expect((await writing).ok).toBe(true);
    expect(during.ok).toBe(true);
    if (!during.ok) return;
    const onPage = during.value.items.some((r) => r.id === target);
    // Either both from before the write or both from after it.
    expect(during.value.count).toBe(onPage ? was + 1 : was);
    all[7] = { ...all[7], s: "eee", x: 10_000_000 };
    await store.update(table, { filter: { and: [{ key: "id", operator: "equal", value: target }] }, values: [{ key: "s", value: "alpha" }, { key: "x", value: 7 }] });
    all[7] = { ...all[7], s: "alpha", x: 7 };
  });
});

describe("the rules", () => {
  it("samples ~50,000 rows, at least 1% and at most all", () => {
    expect(samplePercent(10_000_000)).toBe(1);
    expect(samplePercent(1_000_000)).toBe(5);
    expect(samplePercent(60_000)).toBe(84);
    expect(samplePercent(10)).toBe(100);
  });

  it("bounds only a short page of many matches, taking ten times the page's expected share of the sample", () => {
    expect(boundRank(10_000_000, 0, 50, 1)).toBe(5);
    expect(boundRank(1_000_000, 0, 50, 5)).toBe(25);
    expect(boundRank(60_000, 100, 200, 84)).toBe(2520);
    expect(boundRank(BOUND_MIN_MATCHES - 1, 0, 50, 100)).toBeUndefined();
    expect(boundRank(10_000_000, BOUND_MAX_END - 50, 51, 1)).toBeUndefined();
    expect(boundRank(30_000, 0, 400, 100)).toBeUndefined(); // fewer than a hundred matches per row of the page
    expect(boundRank(10_000_000, 0, 0, 1)).toBeUndefined();
  });

  it("says how many rows a page holds", () => {
    expect(pageRows(100, 0, 50)).toBe(50);
    expect(pageRows(100, 80, 50)).toBe(20);
    expect(pageRows(100, 150, 50)).toBe(0);
  });
});
