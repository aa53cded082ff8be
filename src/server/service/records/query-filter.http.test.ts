/** Query filters over real HTTP, rule by rule (decisions §4). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordRow } from "../../../shared/records";
import { startTestService, type TestService } from "../testing/test-service";
import { compareCodePoints } from "./testing/evaluator";
import { alternatingJson, EMP, nestJson, post } from "./testing/http";

let svc: TestService;
let all: RecordRow[];
const query = (body: unknown) => post(svc, `${EMP}/query`, body);
const ids = (rows: RecordRow[]) => rows.map((r) => r.employee_id);
const cond = (key: string, operator: string, value?: unknown) => ({ key, operator, ...(value === undefined ? {} : { value }) });
/** Query with one condition, every match returned: the ids, sorted by primary key. */
async function matching(c: object): Promise<string[]> {
  const res = await query({ filter: { and: [c] }, select: ["employee_id"], limit: 10_000 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.count).toBe(res.body.items.length);
  return ids(res.body.items) as string[];
}
const AGE33 = '{"key":"age","operator":"equal","value":33}';
const expected = (pred: (r: RecordRow) => boolean) => ids(all.filter(pred));

beforeAll(async () => {
  svc = await startTestService();
  const res = await query({ limit: 10_000 });
  all = res.body.items;
});
afterAll(() => svc.close());

describe("filter operators and type rules", () => {
  const cases: [string, object, (r: RecordRow) => boolean][] = [
    ["equal on text is exact", cond("department", "equal", "Sales"), (r) => r.department === "Sales"],
    ["equal on text is case-sensitive", cond("department", "equal", "sales"), () => false],
    ["equal on number takes a number", cond("age", "equal", 42), (r) => r.age === 42],
    ["equal on number takes a numeric string", cond("age", "equal", "42"), (r) => r.age === 42],
    ["equal null matches null", cond("exit_date", "equal", null), (r) => r.exit_date === null],
    ["notEqual null matches non-null", cond("exit_date", "notEqual", null), (r) => r.exit_date !== null],
    ["notEqual includes nulls (complement of equal)", cond("exit_date", "notEqual", "2001-01-01"), (r) => r.exit_date !== "2001-01-01"],
    ["greaterThan on number", cond("annual_salary", "greaterThan", 200000), (r) => (r.annual_salary as number) > 200000],
    ["greaterThanOrEqual with numeric string", cond("age", "greaterThanOrEqual", "60"), (r) => (r.age as number) >= 60],
    ["lessThan on date", cond("hire_date", "lessThan", "1997-01-01"), (r) => (r.hire_date as string) < "1997-01-01"],
    ["lessThanOrEqual never matches null", cond("exit_date", "lessThanOrEqual", "2100-01-01"), (r) => r.exit_date !== null],
    ["greaterThan on text compares code points", cond("full_name", "greaterThan", "Z"), (r) => compareCodePoints(r.full_name as string, "Z") > 0],
    ["contains is case-insensitive", cond("city", "contains", "PAULO"), (r) => r.city === "São Paulo"],
    ["contains folds non-ASCII letters", cond("city", "contains", "SÃO"), (r) => r.city === "São Paulo"],
    ["startsWith is case-insensitive", cond("job_title", "startsWith", "senior"), (r) => (r.job_title as string).startsWith("Senior")],
    ["notContains includes nulls", cond("exit_date", "notContains", "-0"), (r) => r.exit_date === null || !(r.exit_date as string).includes("-0")],
    ["isEmpty matches null", cond("exit_date", "isEmpty"), (r) => r.exit_date === null],
    ["isNotEmpty matches values", cond("exit_date", "isNotEmpty"), (r) => r.exit_date !== null],
    ["isFixed does not change matching", { ...cond("country", "equal", "China"), isFixed: true }, (r) => r.country === "China"],
  ];
  it.each(cases)("%s", async (_name, c, pred) => {
    const got = await matching(c);
    expect(got).toEqual(expected(pred));
    if (!["equal on text is case-sensitive"].includes(_name)) expect(got.length).toBeGreaterThan(0);
  });

  it("isEmpty also matches the empty string on text Fields", async () => {
    const up = await post(svc, `${EMP}/update`, { values: [{ key: "city", value: "" }], filter: { and: [cond("employee_id", "equal", "E00003")] } });
    expect(up.status).toBe(200);
    expect(await matching(cond("city", "isEmpty"))).toEqual(["E00003"]);
    expect(await matching(cond("city", "isNotEmpty"))).not.toContain("E00003");
    await post(svc, `${EMP}/update`, { values: [{ key: "city", value: all[2].city }], filter: { and: [cond("employee_id", "equal", "E00003")] } });
  });

  const refused: [string, object, RegExp][] = [
    ["a non-numeric string on a number Field", cond("age", "equal", "forty"), /"age" is number.*numeric string/],
    ["contains on a number Field", cond("age", "contains", "4"), /contains does not apply to Field "age" \(number\)/],
    ["an unknown operator", cond("age", "equals", 4), /unknown operator "equals".*equal, notEqual/],
    ["a number on a text Field", cond("city", "equal", 5), /"city" is text.*a string/],
    ["a malformed date", cond("hire_date", "greaterThan", "2020-13-01"), /"hire_date" is date.*YYYY-MM-DD/],
    ["greaterThan null", cond("age", "greaterThan", null), /cannot compare with null/],
    ["a missing value", cond("age", "equal"), /needs a "value"/],
    ["an unknown Field", cond("salary", "equal", 1), /unknown Field "salary"/],
    ["an object value", cond("age", "equal", { n: 1 }), /value must be a string, number, boolean or null/],
    ["an unknown condition property", { ...cond("age", "equal", 1), id: "x" }, /unknown property "id"/],
  ];
  it.each(refused)("refuses %s with a 400 naming it", async (_name, c, message) => {
    const res = await query({ filter: { and: [{ or: [cond("age", "equal", 1), c] }] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "validation_error", subCode: 1 });
    expect(res.body.message).toMatch(message);
    expect(res.body.message).toMatch(/^filter\.and\[0\]\.or\[1\]/);
  });
});

describe("filter structure", () => {
  it('{"and": []} matches every Record and {"or": []} none', async () => {
    expect((await query({ filter: { and: [] }, limit: 0 })).body.count).toBe(1000);
    expect((await query({ filter: { or: [] }, limit: 0 })).body.count).toBe(0);
  });

  it("nests and/or", async () => {
    const filter = { or: [{ and: [cond("country", "equal", "Brazil"), cond("age", "lessThan", 30)] }, cond("department", "equal", "Legal")] };
    const res = await query({ filter, select: ["employee_id"], limit: 10_000 });
    expect(ids(res.body.items)).toEqual(expected((r) => (r.country === "Brazil" && (r.age as number) < 30) || r.department === "Legal"));
  });

  it("ANDs addtionalFilter with filter, and counts both", async () => {
    const res = await query({
      filter: { and: [cond("country", "equal", "China")] },
      addtionalFilter: { or: [cond("department", "equal", "IT")] },
      select: ["employee_id"],
      limit: 3,
    });
    const want = expected((r) => r.country === "China" && r.department === "IT");
    expect(res.body.count).toBe(want.length);
    expect(ids(res.body.items)).toEqual(want.slice(0, 3));
  });

  it.each([
    [{ and: [], or: [] }, /both "and" and "or"/],
    [{ and: [{}] }, /filter\.and\[0\] must be a condition/],
    [{ and: [], not: [] }, /unknown property "not"/],
    [{ and: {} }, /filter\.and must be an array/],
    [[], /filter must be an object with exactly one of "and" or "or"/],
    [{ key: "age", operator: "equal", value: 1 }, /filter is a single condition; the top level must be a group: wrap it as \{"and": \[/],
  ])("refuses the malformed filter %j", async (filter, message) => {
    const res = await query({ filter });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it("evaluates 10,000 levels of single-element nesting", async () => {
    const body = `{"select":["employee_id"],"limit":10000,"filter":${nestJson(10_000, '{"or":[{"key":"age","operator":"equal","value":33}]}')}}`;
    const res = await query(body);
    expect(res.status).toBe(200);
    expect(ids(res.body.items)).toEqual(expected((r) => r.age === 33));
  });

  it("evaluates deep alternating nesting up to the limit", async () => {
    const body = `{"limit":0,"filter":${alternatingJson(700, AGE33, '{"key":"age","operator":"isEmpty"}', '{"key":"age","operator":"isNotEmpty"}')}}`;
    const res = await query(body);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(expected((r) => r.age === 33).length);
  });

  it("refuses alternating nesting deeper than SQLite can take with a 400 naming the depth", async () => {
    const body = `{"filter":${alternatingJson(3000, AGE33, '{"key":"age","operator":"isEmpty"}', '{"key":"age","operator":"isNotEmpty"}')}}`;
    const res = await query(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/nesting depth 3000 is too deep to evaluate: .*flattening/);
  });

  it("names a deep error's place with the middle elided", async () => {
    const res = await query(`{"filter":${nestJson(5000, '{"key":"nope","operator":"equal","value":1}')}}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^filter\.and\[0\]\.and\[0\]\.and\[0\]\.and\[0\]…\(4,992 more levels\)….*unknown Field "nope"/);
  });

  it("refuses more conditions than one request may hold", async () => {
    const many = Array.from({ length: 6000 }, (_, i) => cond("age", "notEqual", i));
    const res = await query({ filter: { and: many } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/at most 5,000/);
  });
});
