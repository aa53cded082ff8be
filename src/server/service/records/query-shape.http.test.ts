/** Query select, paging, count, sort, join, fields, meta and keys over real HTTP (decisions §3, §4, §6). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordRow } from "../../../shared/records";
import { startTestService, type TestService } from "../testing/test-service";
import { compareCodePoints, sortRecords } from "./testing/evaluator";
import { EMP, get, post } from "./testing/http";

let svc: TestService;
let all: RecordRow[];
let departments: RecordRow[];
const SCOPED = "scoped-key-for-departments";
const query = (body: unknown, path = `${EMP}/query`) => post(svc, path, body);
const ids = (rows: RecordRow[]) => rows.map((r) => r.employee_id);

beforeAll(async () => {
  svc = await startTestService({
    apiKeys: [{ key: "test-key-0123456789abcdef" }, { key: SCOPED, scope: { databaseId: "demo", tableSlug: "departments" } }],
  });
  all = (await query({ limit: 10_000 })).body.items;
  departments = (await query({}, "/v0/record/demo/departments/query")).body.items;
});
afterAll(() => svc.close());

describe("sample data", () => {
  it("has 1,000 employees with exactly the Fields of interface §2.2", () => {
    expect(all).toHaveLength(1000);
    expect(Object.keys(all[0])).toEqual([
      "employee_id", "full_name", "job_title", "department", "business_unit", "gender", "ethnicity",
      "age", "hire_date", "annual_salary", "bonus", "country", "city", "exit_date",
    ]);
    expect(all[0].employee_id).toBe("E00001");
    expect(all[999].employee_id).toBe("E01000");
    expect(all.some((r) => r.exit_date === null) && all.some((r) => r.exit_date !== null)).toBe(true);
    expect(new Set(all.map((r) => r.department)).size).toBeLessThan(20);
  });

  it("has one department row per department used", () => {
    expect(departments.map((d) => d.department).sort()).toEqual([...new Set(all.map((r) => r.department))].sort());
    expect(typeof departments[0].budget).toBe("number");
  });

  it("round-trips booleans, json and datetimes in the catalog, with the image keys", async () => {
    const res = await query({ sort: [{ key: "sku", direction: "ascending" }] }, "/v0/record/demo/catalog/query");
    expect(res.body.items[0]).toMatchObject({ sku: "SKU-001", in_stock: true, image: "catalog/lamp.png", manual: "docs/manual.pdf" });
    expect(res.body.items[0].specs).toEqual({ material: "brass", watts: 40, dimmable: true });
    expect(res.body.items.map((r: RecordRow) => r.image)).toEqual(expect.arrayContaining([
      "catalog/lamp.png", "catalog/chair.png", "catalog/desk.jpg", "catalog/shelf.jpg", "catalog/plant.png", "catalog/clock.jpg",
    ]));
    expect(res.body.items.some((r: RecordRow) => r.manual === null)).toBe(true);
    const inStock = await query({ filter: { and: [{ key: "in_stock", operator: "equal", value: "false" }] } }, "/v0/record/demo/catalog/query");
    expect(inStock.body.items.every((r: RecordRow) => r.in_stock === false)).toBe(true);
    expect(inStock.body.count).toBeGreaterThan(0);
    const after = await query({ filter: { and: [{ key: "added_at", operator: "greaterThanOrEqual", value: "2024-06-08T16:30:00+02:00" }] } }, "/v0/record/demo/catalog/query");
    expect(after.body.items.map((r: RecordRow) => r.sku)).toEqual(["SKU-006", "SKU-007", "SKU-008"]);
  });
});

describe("select, limit, skip, count", () => {
  it("returns 100 Records by default, ordered by primary key, with the full count", async () => {
    const res = await query({});
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1000);
    expect(ids(res.body.items)).toEqual(ids(all.slice(0, 100)));
    // A POST without any body (and so without Content-Type) is the same empty query.
    const bare = await svc.call(`${EMP}/query`, { method: "POST" });
    expect(await bare.json()).toEqual(res.body);
    // The interface's examples send client-type: widget; it changes nothing.
    expect((await post(svc, `${EMP}/query`, {}, { "client-type": "widget" })).body).toEqual(res.body);
  });

  it("selects the named Fields in order; * and [] select all", async () => {
    expect(Object.keys((await query({ select: ["age", "employee_id"], limit: 1 })).body.items[0])).toEqual(["age", "employee_id"]);
    expect((await query({ select: ["*"], limit: 1 })).body.items[0]).toEqual(all[0]);
    expect((await query({ select: [], limit: 1 })).body.items[0]).toEqual(all[0]);
  });

  it("applies limit and skip, and counts ignoring both", async () => {
    const res = await query({ limit: 50, skip: 990 });
    expect(ids(res.body.items)).toEqual(ids(all.slice(990)));
    expect(res.body.count).toBe(1000);
    expect((await query({ limit: 0 })).body).toEqual({ items: [], count: 1000 });
    expect((await query({ skip: 5000 })).body).toEqual({ items: [], count: 1000 });
    expect((await query({ limit: 10_000 })).body.items).toHaveLength(1000);
  });

  it.each([
    [{ limit: -1 }, /limit must be an integer from 0 to 10,000/],
    [{ limit: 10_001 }, /limit must be an integer from 0 to 10,000/],
    [{ limit: 2.5 }, /limit must be an integer/],
    [{ limit: "5" }, /limit must be an integer/],
    [{ skip: -3 }, /skip must be a non-negative integer/],
    [{ select: ["salary"] }, /select\[0\]: unknown Field "salary"/],
    [{ select: "employee_id" }, /^select: /],
    [{ sort: [{ key: "age", direction: "up" }] }, /sort\[0\]\.direction/],
    [{ sort: [{ key: "wage" }] }, /sort\[0\]\.key: unknown Field "wage"/],
    [{ filters: {} }, /Unknown property "filters"/],
  ])("refuses %j", async (body, message) => {
    const res = await query(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe("sort", () => {
  const cases = [
    [[{ key: "age", direction: "descending" }], []],
    [[{ key: "department", direction: "ascending" }], [{ key: "annual_salary", direction: "descending" }]],
    [[{ key: "exit_date", direction: "ascending" }], []],
    [[{ key: "exit_date", direction: "descending" }], [{ key: "city", direction: "ascending" }]],
    [[{ key: "full_name", direction: "ascending" }], []],
  ] as const;
  it.each(cases)("orders by %j then %j then the primary key", async (sort, additionalSort) => {
    const res = await query({ sort, additionalSort, limit: 10_000, select: ["*"] });
    const want = sortRecords(all, [...sort, ...additionalSort], "employee_id");
    expect(ids(res.body.items)).toEqual(ids(want));
  });

  it("puts null first ascending and last descending", async () => {
    const asc = (await query({ sort: [{ key: "exit_date", direction: "ascending" }], limit: 1 })).body.items[0];
    const desc = (await query({ sort: [{ key: "exit_date", direction: "descending" }], limit: 10_000 })).body.items;
    expect(asc.exit_date).toBeNull();
    expect(desc[0].exit_date).not.toBeNull();
    expect(desc.at(-1).exit_date).toBeNull();
  });

  it("sorts text by code point (Ö after Z, uppercase before lowercase)", async () => {
    const names = (await query({ sort: [{ key: "full_name", direction: "ascending" }], limit: 10_000 })).body.items.map((r: RecordRow) => r.full_name);
    expect(names).toEqual([...names].sort(compareCodePoints));
    expect(names.findIndex((n: string) => n.startsWith("Ö"))).toBeGreaterThan(names.findLastIndex((n: string) => n.startsWith("Z")));
  });
});

describe("join", () => {
  const join = [{ targetTable: "departments", rules: [{ tableKey: "department", targetTableKey: "department" }] }];

  it('returns joined Fields as "<table>.<field>" and lets filter, sort and select use them', async () => {
    const richest = [...departments].sort((a, b) => (b.budget as number) - (a.budget as number))[0];
    const res = await query({
      join,
      select: ["employee_id", "departments.head", "departments.budget"],
      filter: { and: [{ key: "departments.budget", operator: "equal", value: richest.budget }] },
      sort: [{ key: "departments.head", direction: "descending" }],
      limit: 10_000,
    });
    expect(res.status).toBe(200);
    const want = all.filter((r) => departments.find((d) => d.department === r.department)?.budget === richest.budget);
    expect(res.body.count).toBe(want.length);
    expect(res.body.items[0]).toEqual({ employee_id: want[0].employee_id, "departments.head": richest.head, "departments.budget": richest.budget });
  });

  it("selects base and joined Fields with *", async () => {
    const row = (await query({ join, limit: 1 })).body.items[0];
    expect(Object.keys(row)).toEqual([...Object.keys(all[0]), "departments.department", "departments.head", "departments.budget", "departments.location"]);
  });

  it("is a left join with one output row per match", async () => {
    // city = location: a city may house several departments or none.
    const res = await query({
      join: [{ targetTable: "departments", rules: [{ tableKey: "city", targetTableKey: "location" }] }],
      select: ["employee_id", "departments.department"],
      limit: 10_000,
    });
    const want = all.flatMap((r) => {
      const m = departments.filter((d) => d.location === r.city).sort((a, b) => compareCodePoints(a.department as string, b.department as string));
      return m.length ? m.map((d) => [r.employee_id, d.department]) : [[r.employee_id, null]];
    });
    expect(res.body.count).toBe(want.length);
    expect(res.body.items.map((r: RecordRow) => [r.employee_id, r["departments.department"]])).toEqual(want);
  });

  it.each([
    [[{ targetTable: "nope", rules: [{ tableKey: "department", targetTableKey: "department" }] }], /join\[0\]: no table "nope"/],
    [[{ targetTable: "departments", rules: [{ tableKey: "dept", targetTableKey: "department" }] }], /join\[0\]\.rules\[0\]\.tableKey: unknown Field "dept"/],
    [[{ targetTable: "departments", rules: [{ tableKey: "department", targetTableKey: "name" }] }], /targetTableKey: unknown Field "name"/],
    [[{ targetTable: "departments", rules: [] }], /at least one rule/],
  ])("refuses the bad join %j", async (badJoin, message) => {
    const res = await query({ join: badJoin });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it("refuses a joined Field without the join", async () => {
    const res = await query({ select: ["departments.head"] });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/unknown Field "departments.head".*need a join/);
  });
});

describe("fields, meta, keys, tables", () => {
  it("lists Fields with type, nullability, primary key and bucket", async () => {
    const res = await get(svc, "/v0/record/demo/catalog/fields");
    expect(res.body.items[0]).toEqual({ key: "sku", type: "text", nullable: false, primaryKey: true });
    expect(res.body.items.find((f: { key: string }) => f.key === "image")).toEqual({ key: "image", type: "image", nullable: true, primaryKey: false, bucket: "public-assets" });
    expect(res.body.items.find((f: { key: string }) => f.key === "manual").bucket).toBe("team-files");
    expect((await get(svc, `${EMP}/fields`)).body.items.map((f: { key: string }) => f.key)).toEqual(Object.keys(all[0]));
  });

  it("describes the databases in meta", async () => {
    const res = await get(svc, "/v0/meta");
    expect(res.body.databases).toEqual([{ id: "demo", tables: [
      { slug: "employees", primaryKey: "employee_id" }, { slug: "departments", primaryKey: "department" }, { slug: "catalog", primaryKey: "sku" },
    ] }]);
  });

  it("answers 404 for an unknown table or database", async () => {
    for (const path of ["/v0/record/demo/nope/query", "/v0/record/nodb/employees/query"]) {
      const res = await query({}, path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found", message: expect.stringMatching(/No table/) });
    }
    expect((await get(svc, "/v0/record/demo/nope/fields")).status).toBe(404);
  });

  it("refuses a missing or wrong key with 401", async () => {
    for (const key of ["", "wrong"]) {
      const res = await post(svc, `${EMP}/query`, {}, { "x-api-key": key });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: "auth_error", subCode: 4 });
    }
  });

  it("gives a scoped key its table and 403 elsewhere, even for tables that do not exist", async () => {
    const h = { "x-api-key": SCOPED };
    expect((await post(svc, "/v0/record/demo/departments/query", {}, h)).status).toBe(200);
    for (const path of [`${EMP}/query`, `${EMP}/update`, "/v0/record/demo/ghost/query"]) {
      const res = await post(svc, path, {}, h);
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/scoped to table demo\/departments/);
    }
    expect((await get(svc, `${EMP}/fields`, h)).status).toBe(403);
  });

  it("answers /v0/data-api/record/query for the scoped key's table, and 400 for an unscoped key", async () => {
    const scoped = await post(svc, "/v0/data-api/record/query", { select: ["department"], limit: 2 }, { "x-api-key": SCOPED });
    expect(scoped.status).toBe(200);
    expect(scoped.body.items).toEqual(departments.slice(0, 2).map((d) => ({ department: d.department })));
    const unscoped = await query({}, "/v0/data-api/record/query");
    expect(unscoped.status).toBe(400);
    expect(unscoped.body.message).toMatch(/not scoped to a table/);
  });
});
