/**
 * A page far from the start that lies nearer the end is read from the end (store.ts,
 * pageFromEnd: issue 21, "jump to the last page" at 10,000,000 rows ran out of memory at
 * 512MB). Over real HTTP, on both engines: random sorts over Fields with nulls and many equal
 * values, random filters, skips around and past the turning point and the end, compared with
 * an in-memory evaluation; and a write between the count and the page is never mixed in.
 */
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RecordRow } from "../../../shared/records";
import { startTestService, type TestService } from "../testing/test-service";
import { REVERSE_FROM } from "./store";
import { sortRecords } from "./testing/evaluator";
import { post } from "./testing/http";

const ROWS = REVERSE_FROM * 2 + 600;
const FAR = "/v0/record/demo/far";
let svc: TestService;
let all: RecordRow[];

beforeAll(async () => {
  svc = await startTestService({ seed: false });
  const lines = ["id,n,s,day"];
  for (let i = 0; i < ROWS; i++) {
    const n = i % 11 === 0 ? "" : String((i * 7) % 37);
    const s = i % 13 === 0 ? "" : ["alpha", "Beta", "gamma", "Ünder", "zeta"][(i * 3) % 5];
    lines.push(`F${String(i).padStart(5, "0")},${n},${s},${i % 5 === 0 ? "" : `2024-01-${String(1 + (i % 28)).padStart(2, "0")}`}`);
  }
  const res = await svc.call(`${FAR}/import`, { method: "POST", headers: { "content-type": "text/csv" }, body: lines.join("\n") });
  expect(res.status).toBe(200);
  all = [];
  for (let skip = 0; skip < ROWS; skip += 500) all.push(...(await post(svc, `${FAR}/query`, { limit: 500, skip })).body.items);
  expect(all).toHaveLength(ROWS);
}, 60_000);
afterAll(() => svc.close());

it("pages past the turning point equal the in-memory order, under any sort and filter", async () => {
  const unit = fc.record({ key: fc.constantFrom("n", "s", "day", "id"), direction: fc.constantFrom("ascending" as const, "descending" as const) });
  await fc.assert(
    fc.asyncProperty(
      fc.array(unit, { maxLength: 3 }),
      fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
      fc.integer({ min: REVERSE_FROM - 50, max: ROWS + 50 }),
      fc.integer({ min: 0, max: 300 }),
      async (sort, below, skip, limit) => {
        const filter = below === undefined ? undefined : { or: [{ key: "n", operator: "lessThan", value: below }, { key: "n", operator: "isEmpty" }] };
        const res = await post(svc, `${FAR}/query`, { sort, filter, skip, limit });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const matching = below === undefined ? all : all.filter((r) => r.n === null || (r.n as number) < below);
        expect(res.body.count).toBe(matching.length);
        expect(res.body.items).toEqual(sortRecords(matching, sort, "id").slice(skip, skip + limit));
      },
    ),
    { numRuns: 120, seed: 2111 },
  );
});

it("the last page of a sort is its last Records, in order, and the count is reused for it", async () => {
  const sort = [{ key: "s", direction: "descending" as const }, { key: "n", direction: "ascending" as const }];
  const first = await post(svc, `${FAR}/query`, { sort, limit: 50 });
  const last = await post(svc, `${FAR}/query`, { sort, limit: 50, skip: ROWS - 30 });
  expect(first.body.count).toBe(ROWS);
  expect(last.body.count).toBe(ROWS);
  expect(last.body.items).toEqual(sortRecords(all, sort, "id").slice(ROWS - 30));
});

it("a write between pages is seen whole: the page from the end after an update has the new value", async () => {
  const sort = [{ key: "day", direction: "ascending" as const }];
  const before = await post(svc, `${FAR}/query`, { sort, limit: 10, skip: ROWS - 10 });
  const target = before.body.items[9].id as string;
  const upd = await post(svc, `${FAR}/update`, { filter: { and: [{ key: "id", operator: "equal", value: target }] }, values: [{ key: "day", value: "1999-01-01" }] });
  expect(upd.status).toBe(200);
  const after = await post(svc, `${FAR}/query`, { sort, limit: 10, skip: ROWS - 10 });
  const now = all.map((r) => (r.id === target ? { ...r, day: "1999-01-01" } : r));
  expect(after.body.items.map((r: RecordRow) => r.id)).not.toContain(target);
  expect(after.body.items).toEqual(sortRecords(now, sort, "id").slice(ROWS - 10));
});
