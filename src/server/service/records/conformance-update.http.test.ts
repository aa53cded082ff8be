/**
 * Conformance of Update Records (interface §4.2, decisions §3, §5, §6), written from the text
 * alone: every refusal leaves the table exactly as it was; every success answers
 * {"message":"ok"} with x-matched-count and reads back with the Field's type.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../testing/test-service";
import { byCodePoint, cond, expectError, expectItems, post, type Reply } from "./testing/client";

const CAT = "/v0/record/demo/catalog";
const EMP = "/v0/record/demo/employees";
const one = (sku: string) => ({ and: [cond("sku", "equal", sku)] });

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const snapshot = async (path = CAT) => expectItems(await post(svc, `${path}/query`, { limit: 10_000 })).items;
const update = (body: unknown, path = CAT) => post(svc, `${path}/update`, body);

function expectOk(r: Reply, matched: number): void {
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  expect(r.body).toEqual({ message: "ok" });
  expect(r.headers["x-matched-count"]).toBe(String(matched));
}

describe("refusals write nothing", () => {
  const v = (key: string, value: unknown) => ({ filter: one("SKU-001"), values: [{ key, value }] });
  const cases: [string, unknown, number, RegExp][] = [
    ["a missing filter", { values: [{ key: "price", value: 1 }] }, 400, /filter/],
    ["a null filter", { values: [{ key: "price", value: 1 }], filter: null }, 400, /filter/],
    ["a filter with both and and or", { values: [{ key: "price", value: 1 }], filter: { and: [], or: [] } }, 400, /both/],
    ["missing values", { filter: one("SKU-001") }, 400, /values/],
    ["empty values", { filter: one("SKU-001"), values: [] }, 400, /values/],
    ["values as an object", { filter: one("SKU-001"), values: { price: 1 } }, 400, /values/],
    ["a value without its value", { filter: one("SKU-001"), values: [{ key: "price" }] }, 400, /value/],
    ["an unknown Field", v("nope", 1), 400, /"nope"/],
    ["a joined Field", { filter: { and: [] }, values: [{ key: "departments.head", value: "x" }] }, 400, /departments\.head/],
    ["a Field set twice", { filter: one("SKU-001"), values: [{ key: "price", value: 1 }, { key: "price", value: 2 }] }, 400, /price/],
    ["text ← number", v("name", 5), 400, /"name"/],
    ['number ← "42"', v("price", "42"), 400, /"price"/],
    ["number ← true", v("price", true), 400, /"price"/],
    ["number ← 1e400", '{"filter":{"and":[]},"values":[{"key":"price","value":1e400}]}', 400, /"price"/],
    ['boolean ← "true"', v("in_stock", "true"), 400, /"in_stock"/],
    ["boolean ← 1", v("in_stock", 1), 400, /"in_stock"/],
    ["datetime without a zone", v("added_at", "2024-01-03T09:30:00"), 400, /"added_at"/],
    ["datetime ← a date", v("added_at", "2024-01-03"), 400, /"added_at"/],
    ["datetime ← garbage", v("added_at", "soon"), 400, /"added_at"/],
    ["image ← number", v("image", 5), 400, /"image"/],
    ["image ← a key with ..", v("image", "../secret.png"), 400, /"image"/],
    ["attachment ← an empty key", v("manual", ""), 400, /"manual"/],
    ["null on the primary key", v("sku", null), 400, /"sku"/],
    ["an empty primary key", v("sku", ""), 400, /"sku"/],
    ["a number primary key", v("sku", 5), 400, /"sku"/],
    ["fixedValue as an object", { ...v("price", 1), fixedValue: {} }, 400, /fixedValue/],
    ["fixedValue null", { ...v("price", 1), fixedValue: null }, 400, /fixedValue/],
    ["a non-empty fixedValue", { ...v("price", 1), fixedValue: [{ key: "price", value: 1 }] }, 400, /fixedValue/],
    ["an unknown property", { ...v("price", 1), extra: 1 }, 400, /extra/],
    ["a good value beside a bad one", { filter: { and: [] }, values: [{ key: "price", value: 1 }, { key: "in_stock", value: "no" }] }, 400, /"in_stock"/],
    ["a filter on an unknown Field", { filter: { and: [cond("nope", "equal", 1)] }, values: [{ key: "price", value: 1 }] }, 400, /"nope"/],
    ["a filter with a wrong type", { filter: { and: [cond("price", "equal", "cheap")] }, values: [{ key: "price", value: 1 }] }, 400, /"price"/],
    ["a primary key that collides", { filter: one("SKU-001"), values: [{ key: "name", value: "CHANGED" }, { key: "sku", value: "SKU-002" }] }, 409, /SKU-002/],
    ["a bulk primary key that collides", { filter: { or: [cond("sku", "equal", "SKU-001"), cond("sku", "equal", "SKU-002")] }, values: [{ key: "sku", value: "NEW" }, { key: "price", value: 1 }] }, 409, /sku/],
  ];
  it.each(cases)("refuses %s", async (_label, body, status, message) => {
    const before = await snapshot();
    expectError(await update(body), status, message);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a date that does not exist on the employees table, writing nothing", async () => {
    const before = await snapshot(EMP);
    for (const value of ["2021-02-30", "2021-13-01", "2021-02-03T00:00:00Z", 20210203]) {
      expectError(await update({ filter: { and: [] }, values: [{ key: "hire_date", value }] }, EMP), 400, /"hire_date"/);
    }
    expect(await snapshot(EMP)).toEqual(before);
  });
});

describe("successful updates", () => {
  it("writes every type exactly and reads it back in the Field's type", async () => {
    const values = [
      { key: "name", value: "Brass lamp \u{1F4A1}" },
      { key: "price", value: 12.25 },
      { key: "in_stock", value: false },
      { key: "added_at", value: "2024-01-03T10:30:00+01:00" },
      { key: "specs", value: { nested: [1, "two", null, { deep: true }], "ключ": "значение" } },
      { key: "image", value: "v1700000000000/catalog/lamp.png" },
      { key: "manual", value: null },
    ];
    expectOk(await update({ filter: one("SKU-001"), values, fixedValue: [] }), 1);
    const r = expectItems(await post(svc, `${CAT}/query`, { filter: one("SKU-001") }));
    expect(r.items[0]).toEqual({
      sku: "SKU-001",
      name: "Brass lamp \u{1F4A1}",
      price: 12.25,
      in_stock: false,
      added_at: "2024-01-03T09:30:00.000Z",
      specs: { nested: [1, "two", null, { deep: true }], "ключ": "значение" },
      image: "v1700000000000/catalog/lamp.png",
      manual: null,
    });
  });

  it("updates every Record matching the filter (bulk) and counts them in x-matched-count", async () => {
    const filter = { or: [cond("price", "greaterThan", "200"), cond("name", "contains", "CLOCK")] };
    const want = (await snapshot()).filter((r) => (r.price as number) > 200 || String(r.name).toLowerCase().includes("clock"));
    expect(want.length).toBeGreaterThan(1);
    expectOk(await update({ filter, values: [{ key: "in_stock", value: true }] }), want.length);
    const after = await snapshot();
    for (const r of want) expect(after.find((x) => x.sku === r.sku)?.in_stock).toBe(true);
  });

  it("answers ok with x-matched-count 0 when nothing matches", async () => {
    const before = await snapshot();
    expectOk(await update({ filter: { or: [] }, values: [{ key: "price", value: 0 }] }), 0);
    expect(await snapshot()).toEqual(before);
  });

  it('updates every Record on purpose with {"and": []}', async () => {
    expectOk(await update({ filter: { and: [] }, values: [{ key: "location", value: "Remote" }] }, "/v0/record/demo/departments"), 9);
    const r = expectItems(await post(svc, "/v0/record/demo/departments/query", { filter: { and: [cond("location", "notEqual", "Remote")] } }));
    expect(r.count).toBe(0);
  });

  it("renames a primary key when it does not collide", async () => {
    expectOk(await update({ filter: one("SKU-008"), values: [{ key: "sku", value: "SKU-108" }] }), 1);
    expect(expectItems(await post(svc, `${CAT}/query`, { filter: one("SKU-108"), select: ["name"] })).items).toEqual([{ name: "Reading chair" }]);
  });

  it("applies 50 concurrent updates of different Records, none lost", async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `E${String(i + 1).padStart(5, "0")}`);
    const replies = await Promise.all(
      ids.map((id, i) => update({ filter: { and: [cond("employee_id", "equal", id)] }, values: [{ key: "age", value: 100 + i }] }, EMP)),
    );
    for (const r of replies) expectOk(r, 1);
    const r = expectItems(await post(svc, `${EMP}/query`, { select: ["age"], filter: { or: ids.map((id) => cond("employee_id", "equal", id)) }, limit: 50 }));
    expect(r.items.map((x) => x.age)).toEqual(ids.map((_, i) => 100 + i));
  });
});

describe("text rules after writes", () => {
  const names = ["\u{1F600} grin", "\uFF5E tilde", "apple", "Banana", "éclair", "Zebra", ""];
  beforeAll(async () => {
    const skus = ["SKU-001", "SKU-002", "SKU-003", "SKU-004", "SKU-005", "SKU-006", "SKU-007"];
    for (const [i, sku] of skus.entries()) expectOk(await update({ filter: one(sku), values: [{ key: "name", value: names[i] }] }), 1);
  });

  it("sorts by code point, astral characters after the whole BMP", async () => {
    const r = expectItems(await post(svc, `${CAT}/query`, { select: ["name"], sort: [{ key: "name", direction: "ascending" }] }));
    const want = [...names, "Reading chair"].sort(byCodePoint);
    expect(r.items.map((x) => x.name)).toEqual(want);
    expect(want.at(-1)).toBe("\u{1F600} grin");
  });

  it("counts an empty string as empty", async () => {
    const r = expectItems(await post(svc, `${CAT}/query`, { select: ["sku"], filter: { and: [cond("name", "isEmpty")] } }));
    expect(r.items).toEqual([{ sku: "SKU-007" }]);
  });

  it("compares equal exactly and contains without case, beyond ASCII", async () => {
    const count = async (c: unknown) => expectItems(await post(svc, `${CAT}/query`, { filter: { and: [c] }, limit: 0 })).count;
    expect(await count(cond("name", "equal", "Éclair"))).toBe(0);
    expect(await count(cond("name", "equal", "éclair"))).toBe(1);
    expect(await count(cond("name", "startsWith", "ÉCL"))).toBe(1);
    expect(await count(cond("name", "contains", "\u{1F600}"))).toBe(1);
  });
});
