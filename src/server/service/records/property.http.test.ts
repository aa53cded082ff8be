/**
 * Property tests over real HTTP: random nested filters (depth ≤ 6, every operator, values from
 * the data and outside it) and sorts give the same items, order and count as an in-memory
 * evaluation; paging with skip under any sort returns every Record exactly once.
 */
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { FilterGroup, FilterNode, Operator } from "../../../shared/filter";
import type { FieldInfo, RecordRow } from "../../../shared/records";
import { startTestService, type TestService } from "../testing/test-service";
import { operatorsByType } from "./filter-condition";
import { matches, sortRecords, type Types } from "./testing/evaluator";
import { EMP, get, post } from "./testing/http";

let svc: TestService;
let all: RecordRow[];
let fields: FieldInfo[];
let types: Types;

beforeAll(async () => {
  svc = await startTestService();
  all = (await post(svc, `${EMP}/query`, { limit: 10_000 })).body.items;
  fields = (await get(svc, `${EMP}/fields`)).body.items;
  types = Object.fromEntries(fields.map((f) => [f.key, f.type]));
});
afterAll(() => svc.close());

const ordering = new Set<Operator>(["greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual"]);

/** A value fitting the Field's type and the operator: from the data, near it, or outside it. */
function valueArb(field: FieldInfo, operator: Operator): fc.Arbitrary<unknown> {
  const seen = [...new Set(all.map((r) => r[field.key]).filter((v) => v !== null))];
  const fromData = fc.constantFrom(...seen);
  if (operator === "contains" || operator === "notContains" || operator === "startsWith") {
    return fc.oneof(
      fromData.chain((v) => fc.nat({ max: String(v).length }).map((n) => String(v).slice(0, n))),
      fromData.chain((v) => fc.nat({ max: String(v).length }).map((n) => String(v).slice(n).toUpperCase())),
      fc.constantFrom("ão", "Ö", "PAUL", "-0", "zzz", ""),
      fc.string({ maxLength: 3 }),
    );
  }
  let typed: fc.Arbitrary<unknown>;
  if (field.type === "number") {
    typed = fc.oneof(
      fromData,
      fromData.map((v) => String(v)),
      fc.integer({ min: -10, max: 300_000 }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
    );
  } else if (field.type === "date") {
    typed = fc.oneof(fromData, fc.date({ min: new Date("1990-01-01"), max: new Date("2035-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
  } else {
    typed = fc.oneof(fromData, fromData.map((v) => String(v).toLowerCase()), fc.string({ maxLength: 4 }), fc.constantFrom("Z", "Ö", "São Paulo"));
  }
  return !ordering.has(operator) ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 6, arbitrary: typed }) : typed;
}

const conditionArb: fc.Arbitrary<FilterNode> = fc.integer({ min: 0, max: 13 }).chain((i) => {
  const field = fields[i];
  return fc.constantFrom(...operatorsByType[field.type]).chain((operator): fc.Arbitrary<FilterNode> =>
    operator === "isEmpty" || operator === "isNotEmpty"
      ? fc.constant({ key: field.key, operator })
      : fc.tuple(valueArb(field, operator), fc.boolean()).map(([value, isFixed]) => ({
          key: field.key,
          operator,
          value: value as string | number | null,
          ...(isFixed ? { isFixed } : {}),
        })),
  );
});

function groupArb(depth: number): fc.Arbitrary<FilterGroup> {
  const child: fc.Arbitrary<FilterNode> =
    depth <= 1 ? conditionArb : fc.oneof({ weight: 3, arbitrary: conditionArb }, { weight: 1, arbitrary: groupArb(depth - 1) });
  return fc
    .tuple(fc.constantFrom("and", "or"), fc.array(child, { maxLength: 3 }))
    .map(([op, children]) => (op === "and" ? { and: children } : { or: children }));
}

it("matches an in-memory evaluation for random nested filters and sorts", async () => {
  const keys = fields.map((f) => f.key);
  const sort = fc.array(fc.record({ key: fc.constantFrom(...keys), direction: fc.constantFrom("ascending" as const, "descending" as const) }), { maxLength: 3 });
  await fc.assert(
    fc.asyncProperty(
      groupArb(6),
      fc.option(groupArb(2), { nil: undefined }),
      sort,
      fc.option(fc.integer({ min: 0, max: 1200 }), { nil: undefined }),
      fc.option(fc.integer({ min: 0, max: 1100 }), { nil: undefined }),
      async (filter, addtionalFilter, sortUnits, limit, skip) => {
        const res = await post(svc, `${EMP}/query`, { filter, addtionalFilter, sort: sortUnits, limit, skip });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const matching = all.filter((r) => matches(r, filter, types) && (!addtionalFilter || matches(r, addtionalFilter, types)));
        const ordered = sortRecords(matching, sortUnits, "employee_id");
        const from = skip ?? 0;
        expect(res.body.count).toBe(matching.length);
        expect(res.body.items).toEqual(ordered.slice(from, from + (limit ?? 100)));
      },
    ),
    { numRuns: 250, seed: 424242 },
  );
});

it("pages through every Record exactly once under any sort", async () => {
  const keys = fields.map((f) => f.key);
  const sort = fc.array(fc.record({ key: fc.constantFrom(...keys), direction: fc.constantFrom("ascending" as const, "descending" as const) }), { minLength: 1, maxLength: 2 });
  await fc.assert(
    fc.asyncProperty(sort, fc.integer({ min: 40, max: 300 }), async (sortUnits, pageSize) => {
      const seen: string[] = [];
      for (let skip = 0; ; skip += pageSize) {
        const res = await post(svc, `${EMP}/query`, { sort: sortUnits, limit: pageSize, skip, select: ["employee_id"] });
        if (res.body.items.length === 0) break;
        seen.push(...res.body.items.map((r: RecordRow) => r.employee_id));
      }
      expect(seen).toHaveLength(all.length);
      expect(new Set(seen).size).toBe(all.length);
      expect(seen).toEqual(sortRecords(all, sortUnits, "employee_id").map((r) => r.employee_id));
    }),
    { numRuns: 12, seed: 7 },
  );
});
