/** Update Records over real HTTP, rule by rule (decisions §5). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordRow } from "../../../shared/records";
import { parseServiceConfig } from "../config";
import { openEngine } from "../engines/open";
import { startTestService, testEngineConfig, type TestService } from "../testing/test-service";
import { SqlRecordStore } from "./store";
import { EMP, post } from "./testing/http";

let svc: TestService;
let dataDir: string;
const CAT = "/v0/record/demo/catalog";
const WIDE_FIELDS = 50;
const byId = (id: string) => ({ and: [{ key: "employee_id", operator: "equal", value: id }] });
const deepJson = (n: number) => {
  let v: unknown = [];
  for (let i = 0; i < n; i++) v = [v];
  return v;
};
const update = (body: unknown, base = EMP) => post(svc, `${base}/update`, body);
async function record(id: string): Promise<RecordRow> {
  return (await post(svc, `${EMP}/query`, { filter: byId(id) })).body.items[0];
}
async function snapshot(base = EMP): Promise<RecordRow[]> {
  return (await post(svc, `${base}/query`, { limit: 10_000 })).body.items;
}

beforeAll(async () => {
  // A first start seeds the demo tables; a wide table (for the concurrency test) is then added
  // to the same file, and the service restarted on it, as a user's data directory would be.
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-upd-"));
  await (await startTestService({ dataDir })).close();
  const engine = await openEngine({ ...parseServiceConfig([], {}), dataDir, ...(await testEngineConfig(dataDir)) });
  const store = await SqlRecordStore.open(engine);
  const fields = Array.from({ length: WIDE_FIELDS }, (_, i) => ({ key: `f${i}`, type: "number" as const, nullable: true }));
  const wide = await store.createTable({ databaseId: "demo", slug: "wide", primaryKey: "id", fields: [{ key: "id", type: "text", nullable: false }, ...fields] });
  await store.insertRows(wide, [{ id: "r1" }]);
  await engine.close();
  svc = await startTestService({ dataDir });
});
afterAll(async () => {
  await svc.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a table's total after writes (its rows on file before the service opened it)", () => {
  it("the unfiltered count and the last page follow inserts and deletes", async () => {
    const WIDE = "/v0/record/demo/wide";
    const total = async () => (await post(svc, `${WIDE}/query`, { limit: 1 })).body.count as number;
    const before = await total();
    // DuckDB folded a whole-table count(*) into its plan when prepared: kept, it never changed.
    expect((await post(svc, `${WIDE}/insert`, { records: [{ id: "r-count-1" }, { id: "r-count-2" }] })).status).toBeLessThan(300);
    expect(await total()).toBe(before + 2);
    const last = await post(svc, `${WIDE}/query`, { sort: [{ key: "id", direction: "ascending" }], skip: before + 1, limit: 50 });
    expect(last.body.items.map((r: { id: string }) => r.id)).toEqual(["r1"]);
    expect((await post(svc, `${WIDE}/delete`, { filter: { and: [{ key: "id", operator: "equal", value: "r-count-2" }] }, expectedCount: 1 })).status).toBe(200);
    expect(await total()).toBe(before + 1);
    // Left as found (the concurrency test below reads the table's one Record).
    expect((await post(svc, `${WIDE}/delete`, { filter: { and: [{ key: "id", operator: "equal", value: "r-count-1" }] }, expectedCount: 1 })).status).toBe(200);
    expect(await total()).toBe(before);
  });
});

describe("update", () => {
  it("updates one Record, answers ok and the matched count", async () => {
    const res = await update({ fixedValue: [], values: [{ key: "age", value: 30 }, { key: "city", value: "Lisbon" }], filter: byId("E00010") });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "ok" });
    expect(res.headers.get("x-matched-count")).toBe("1");
    expect(await record("E00010")).toMatchObject({ age: 30, city: "Lisbon" });
  });

  it("updates every matching Record (bulk), and none when nothing matches", async () => {
    const legal = (await snapshot()).filter((r) => r.department === "Legal");
    const res = await update({ values: [{ key: "bonus", value: 1234 }], filter: { and: [{ key: "department", operator: "equal", value: "Legal" }] } });
    expect(res.headers.get("x-matched-count")).toBe(String(legal.length));
    const after = (await snapshot()).filter((r) => r.department === "Legal");
    expect(after.every((r) => r.bonus === 1234)).toBe(true);
    const none = await update({ values: [{ key: "bonus", value: 1 }], filter: byId("E99999") });
    expect(none.status).toBe(200);
    expect(none.headers.get("x-matched-count")).toBe("0");
  });

  it('updates every Record with {"and": []}, on purpose', async () => {
    const res = await update({ values: [{ key: "manual", value: null }], filter: { and: [] } }, CAT);
    expect(res.headers.get("x-matched-count")).toBe("8");
    expect((await snapshot(CAT)).every((r) => r.manual === null)).toBe(true);
  });

  it("writes each type exactly and reads it back", async () => {
    const filter = { and: [{ key: "sku", operator: "equal", value: "SKU-002" }] };
    const values = [
      { key: "in_stock", value: false },
      { key: "specs", value: { tags: ["a", "b"], nested: { ok: true }, n: null } },
      { key: "added_at", value: "2024-05-01T12:00:00+02:00" },
      { key: "price", value: 12.5 },
      { key: "image", value: "catalog/desk.jpg" },
    ];
    expect((await update({ values, filter }, CAT)).status).toBe(200);
    const row = (await post(svc, `${CAT}/query`, { filter })).body.items[0];
    expect(row).toMatchObject({ in_stock: false, specs: values[1].value, added_at: "2024-05-01T10:00:00.000Z", price: 12.5, image: "catalog/desk.jpg" });
  });

  it("renames a primary key when it stays unique", async () => {
    expect((await update({ values: [{ key: "employee_id", value: "X00001" }], filter: byId("E00020") })).status).toBe(200);
    expect(await record("X00001")).toMatchObject({ employee_id: "X00001" });
    expect(await record("E00020")).toBeUndefined();
  });
});

describe("update refusals leave the data unchanged", () => {
  const refusals: [string, unknown, number, RegExp][] = [
    ["a missing filter", { values: [{ key: "age", value: 1 }] }, 400, /filter is required.*\{"and": \[\]\}/],
    ["empty values", { values: [], filter: byId("E00001") }, 400, /values must name at least one Field/],
    ["missing values", { filter: byId("E00001") }, 400, /^values must be an array/],
    ["a numeric string for a number", { values: [{ key: "age", value: "42" }], filter: byId("E00001") }, 400, /values\[0\]: Field "age" is number and takes a JSON number, not "42"/],
    ["a number for text", { values: [{ key: "city", value: 5 }], filter: byId("E00001") }, 400, /"city" is text and takes a string/],
    ["a bad date", { values: [{ key: "hire_date", value: "2020-02-30" }], filter: byId("E00001") }, 400, /"hire_date" is date/],
    ["a datetime without a zone", { values: [{ key: "added_at", value: "2024-05-01T10:00:00" }], filter: { and: [] } }, 400, /"added_at" is datetime/],
    ["a string for a boolean", { values: [{ key: "in_stock", value: "true" }], filter: { and: [] } }, 400, /"in_stock" is boolean and takes true or false/],
    ["null for the primary key", { values: [{ key: "employee_id", value: null }], filter: byId("E00001") }, 400, /"employee_id" cannot be null/],
    ["a missing value", { values: [{ key: "age" }], filter: byId("E00001") }, 400, /values\[0\]: "value" is missing/],
    ["an unknown Field", { values: [{ key: "salary", value: 1 }], filter: byId("E00001") }, 400, /values\[0\]\.key: unknown Field "salary"/],
    ["a joined Field", { values: [{ key: "departments.head", value: "x" }], filter: byId("E00001") }, 400, /joined Fields cannot be updated/],
    ["a Field set twice", { values: [{ key: "age", value: 1 }, { key: "age", value: 2 }], filter: byId("E00001") }, 400, /set twice/],
    ["a valid value beside an invalid one", { values: [{ key: "age", value: 99 }, { key: "bonus", value: "x" }], filter: { and: [] } }, 400, /values\[1\]: Field "bonus"/],
    ["an unknown filter Field", { values: [{ key: "age", value: 1 }], filter: { and: [{ key: "nope", operator: "equal", value: 1 }] } }, 400, /filter\.and\[0\]: unknown Field "nope"/],
    ["a non-empty fixedValue", { fixedValue: [{ key: "age" }], values: [{ key: "age", value: 1 }], filter: byId("E00001") }, 400, /fixedValue must be empty/],
    ["a fixedValue that is not an array", { fixedValue: {}, values: [{ key: "age", value: 1 }], filter: byId("E00001") }, 400, /fixedValue must be an array/],
    ["a json value nested too deep", { values: [{ key: "specs", value: deepJson(200) }], filter: { and: [] } }, 400, /"specs" is nested more than 64 levels deep/],
    ["a primary key collision", { values: [{ key: "employee_id", value: "E00002" }], filter: byId("E00001") }, 409, /same primary key \("E00002"\); nothing was written/],
    ["a bulk primary key collision", { values: [{ key: "employee_id", value: "NEW" }], filter: { or: [{ key: "employee_id", operator: "equal", value: "E00003" }, { key: "employee_id", operator: "equal", value: "E00004" }] } }, 409, /nothing was written/],
  ];
  it.each(refusals)("refuses %s", async (_name, body, status, message) => {
    const base = /added_at|in_stock|specs/.test(JSON.stringify(body)) ? CAT : EMP;
    const before = await snapshot(base);
    const res = await update(body, base);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ error: status === 409 ? "conflict" : "validation_error", message: expect.stringMatching(message) });
    expect(await snapshot(base)).toEqual(before);
  });
});

describe("concurrency", () => {
  it("applies 50 concurrent updates of different Fields of one Record, none lost", async () => {
    const results = await Promise.all(
      Array.from({ length: WIDE_FIELDS }, (_, i) =>
        update({ values: [{ key: `f${i}`, value: i + 1 }], filter: { and: [{ key: "id", operator: "equal", value: "r1" }] } }, "/v0/record/demo/wide"),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(WIDE_FIELDS).fill(200));
    const row = (await post(svc, "/v0/record/demo/wide/query", {})).body.items[0];
    expect(row).toEqual({ id: "r1", ...Object.fromEntries(Array.from({ length: WIDE_FIELDS }, (_, i) => [`f${i}`, i + 1])) });
  });
});

describe("before-images (the beforeImages extension, for the audit trail)", () => {
  const H = { "x-baseboard-before-images": "2" };
  const inDept = (d: string) => ({ and: [{ key: "department", operator: "equal", value: d }] });

  it("answers what the update overwrote: primary key and the Fields set, at most n; the count is all of them", async () => {
    const all = (await post(svc, `${EMP}/query`, { filter: inDept("Engineering"), sort: [{ key: "employee_id", direction: "ascending" }], limit: 1000 })).body.items as RecordRow[];
    expect(all.length).toBeGreaterThan(2);
    const res = await post(svc, `${EMP}/update`, { filter: inDept("Engineering"), values: [{ key: "city", value: "Before City" }, { key: "age", value: 44 }] }, H);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-matched-count")).toBe(String(all.length));
    const { before } = res.body as { before: { fields: string[]; rows: unknown[][] } };
    expect(before.fields).toEqual(["employee_id", "city", "age"]);
    expect(before.rows).toHaveLength(2);
    const was = new Map(all.map((r) => [r.employee_id, [r.employee_id, r.city, r.age]]));
    for (const b of before.rows) expect(b).toEqual(was.get(b[0] as string));
    expect((await record(all[0].employee_id as string)).city).toBe("Before City");
  });

  it("an import answers what it overwrote and the keys of the Records it added, at most n each", async () => {
    const csv = "employee_id,city\nE00041,Import City\nBI-N1,New One\nBI-N2,New Two\nBI-N3,New Three\n";
    const was = await record("E00041");
    const res = await svc.call(`${EMP}/import`, { method: "POST", headers: { "content-type": "text/csv", ...H }, body: csv });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { inserted: number; updated: number; before: { fields: string[]; rows: unknown[][] }; added: string[] };
    expect(body).toMatchObject({ inserted: 3, updated: 1 });
    expect(body.before).toEqual({ fields: ["employee_id", "city"], rows: [["E00041", was.city, "Import City"]] });
    expect(body.added).toHaveLength(2);
    for (const k of body.added) expect(["BI-N1", "BI-N2", "BI-N3"]).toContain(k);
    // Without the header: the plain answer.
    const plain = await svc.call(`${EMP}/import`, { method: "POST", headers: { "content-type": "text/csv" }, body: "employee_id,city\nBI-N4,Plain\n" });
    expect(await plain.json()).toEqual({ message: "ok", inserted: 1, updated: 0, created: false });
  });

  it("answers the old primary key when the update changes it; nothing extra without the header", async () => {
    const res = await post(svc, `${EMP}/update`, { filter: byId("E00031"), values: [{ key: "employee_id", value: "E00031-renamed" }] }, { "x-baseboard-before-images": "10000" });
    expect(res.body).toEqual({ message: "ok", before: { fields: ["employee_id"], rows: [["E00031"]] } });
    const back = await update({ filter: byId("E00031-renamed"), values: [{ key: "employee_id", value: "E00031" }] });
    expect(back.body).toEqual({ message: "ok" });
    const none = await post(svc, `${EMP}/update`, { filter: byId("nobody"), values: [{ key: "city", value: "x" }] }, H);
    expect(none.body).toEqual({ message: "ok", before: { fields: ["employee_id", "city"], rows: [] } });
  });

  it("answers every Field type exactly as a query reads it (the engine writes the JSON)", async () => {
    // Values whose JSON is easy to get wrong: a double needing 17 digits, text with quotes,
    // backslashes, control characters, emoji and a newline, a nested JSON value, false, null.
    const odd = [
      { sku: "BI-1", name: 'a "quoted" \\ back\u0001slash, é 😀\nline', price: 0.1 + 0.2, in_stock: false, added_at: "2024-05-01T10:00:00.000Z", specs: { tags: ["x", 1.5, null], deep: { ok: true } } },
      { sku: "BI-2", name: null, price: 9007199254740991, in_stock: true, added_at: null, specs: null },
      { sku: "BI-3", name: "", price: -0.000001, in_stock: null, added_at: "1999-12-31T23:59:59.999Z", specs: [1, "two", { three: 3 }] },
    ];
    const added = await post(svc, `${CAT}/insert`, { records: odd });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const filter = { and: [{ key: "sku", operator: "startsWith", value: "BI-" }] };
    const read = (await post(svc, `${CAT}/query`, { filter, limit: 10 })).body.items as RecordRow[];
    const fields = ["sku", "name", "price", "in_stock", "added_at", "specs"];
    // One Record by its key (read as a row), then all three (the engine's JSON).
    const one = read.find((r) => r.sku === "BI-1")!;
    const same = fields.slice(1).map((key) => ({ key, value: one[key] }));
    const single = await post(svc, `${CAT}/update`, { filter: { and: [{ key: "sku", operator: "equal", value: "BI-1" }] }, values: same }, { "x-baseboard-before-images": "10" });
    expect(single.body).toEqual({ message: "ok", before: { fields, rows: [fields.map((f) => one[f])] } });
    const values = fields.slice(1).map((key) => ({ key, value: null }));
    const res = await post(svc, `${CAT}/update`, { filter, values }, { "x-baseboard-before-images": "10" });
    const { before } = res.body as { before: { fields: string[]; rows: unknown[][] } };
    expect(before.fields).toEqual(fields);
    const bySku = (rows: unknown[][]) => [...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(bySku(before.rows)).toEqual(bySku(read.map((r) => fields.map((f) => r[f]))));
    expect(Object.is((bySku(before.rows)[0] as number[])[2], 0.1 + 0.2)).toBe(true);
  });

  it("concurrent updates of one Record, by key and by filter: each before-image is what the update before it wrote", async () => {
    // DuckDB reads the before-images beside the update on another connection: they must still
    // be exactly what each update overwrote, so the Record's values form one unbroken chain.
    const id = "E00040";
    const start = await record(id);
    const dept = { and: [{ key: "department", operator: "equal", value: start.department }] };
    const sent = Array.from({ length: 36 }, (_, i) => ({ city: `Chain ${i}`, bulk: i % 3 === 2 }));
    const busy = Array.from({ length: 6 }, () => post(svc, `${EMP}/query`, { filter: { and: [{ key: "full_name", operator: "contains", value: "a" }] }, limit: 50 }));
    const answers = await Promise.all(
      sent.map(({ city, bulk }) =>
        post(svc, `${EMP}/update`, { filter: bulk ? dept : byId(id), values: [{ key: "city", value: city }] }, { "x-baseboard-before-images": "10000" }),
      ),
    );
    await Promise.all(busy);
    const next = new Map<unknown, string>();
    answers.forEach((res, i) => {
      expect(res.status).toBe(200);
      const { before } = res.body as { before: { fields: string[]; rows: unknown[][] } };
      const mine = before.rows.filter((r) => r[0] === id);
      expect(mine, sent[i].city).toHaveLength(1);
      expect(next.has(mine[0][1]), `two updates overwrote ${String(mine[0][1])}`).toBe(false);
      next.set(mine[0][1], sent[i].city);
    });
    let at: unknown = start.city;
    for (let n = 0; n < sent.length; n++) {
      expect(next.has(at), `the chain breaks after ${String(at)}`).toBe(true);
      at = next.get(at);
    }
    expect((await record(id)).city).toBe(at);
  });

  it("refuses a header that is not a whole number from 1 to 10,000, and writes nothing", async () => {
    const was = await record("E00032");
    for (const bad of ["0", "10001", "abc", "1.5", "-3"]) {
      const res = await post(svc, `${EMP}/update`, { filter: byId("E00032"), values: [{ key: "city", value: "Nope" }] }, { "x-baseboard-before-images": bad });
      expect(res.status, bad).toBe(400);
      expect((res.body as { message: string }).message).toMatch(/x-baseboard-before-images: send a whole number from 1 to 10000/);
    }
    expect(await record("E00032")).toEqual(was);
  });

  it("is advertised in meta", async () => {
    const meta = await svc.call("/v0/meta", { headers: {} });
    expect(((await meta.json()) as { capabilities: Record<string, unknown> }).capabilities.beforeImages).toBe(true);
  });
});
