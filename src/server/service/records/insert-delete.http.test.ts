/** Insert and delete Records over real HTTP (issue 24 items 1–2), on whichever engine the project runs. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordRow } from "../../../shared/records";
import { startTestService, type TestService } from "../testing/test-service";
import { EMP, get, post } from "./testing/http";
import { BEFORE_IMAGES_HEADER } from "../../../shared/record-writes";

let svc: TestService;
const CAT = "/v0/record/demo/catalog";
const eq = (key: string, value: unknown) => ({ key, operator: "equal", value });
const inIds = (...ids: string[]) => ({ or: ids.map((id) => eq("sku", id)) });

async function rows(filter: unknown, base = CAT): Promise<RecordRow[]> {
  return (await post(svc, `${base}/query`, { filter, limit: 10_000 })).body.items;
}
async function total(base = CAT): Promise<number> {
  return (await post(svc, `${base}/query`, { limit: 0 })).body.count;
}

beforeAll(async () => {
  svc = await startTestService({});
});
afterAll(async () => {
  await svc.close();
});

describe("insert", () => {
  it("inserts Records of every type and answers the count; left-out Fields are null", async () => {
    const res = await post(svc, `${CAT}/insert`, {
      records: [
        { sku: "NEW-1", name: "Lamp", price: 12.5, in_stock: true, added_at: "2024-03-01T10:00:00+01:00", specs: { w: [1, 2] }, image: "catalog/lamp.png" },
        { sku: "NEW-2" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 2 });
    const got = await rows(inIds("NEW-1", "NEW-2"));
    expect(got.find((r) => r.sku === "NEW-1")).toMatchObject({ name: "Lamp", price: 12.5, in_stock: true, added_at: "2024-03-01T09:00:00.000Z", specs: { w: [1, 2] } });
    expect(got.find((r) => r.sku === "NEW-2")).toMatchObject({ name: null, price: null, in_stock: null, specs: null });
  });

  it("all or nothing: one bad value writes none of the batch, with the path of the bad one", async () => {
    const before = await total();
    const res = await post(svc, `${CAT}/insert`, { records: [{ sku: "OK-1", price: 1 }, { sku: "OK-2", price: "1" }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.message).toMatch(/records\[1\]\.price.*number/);
    expect(await total()).toBe(before);
    expect(await rows(inIds("OK-1"))).toEqual([]);
  });

  it.each([
    [{ sku: "N1", price: 1e20 }, /beyond/],
    [{ sku: "N2", price: 2 ** 53 }, /beyond/],
    [{ sku: "N3", in_stock: "yes" }, /in_stock.*true or false/],
    [{ sku: "N4", added_at: "2024-02-30T10:00:00Z" }, /added_at/],
    [{ sku: "N5", nope: 1 }, /unknown Field "nope"/],
    [{ name: "no key" }, /primary key "sku" is missing/],
    // Sent, as null: said so, not "missing" (review 38a #8).
    [{ sku: null }, /primary key "sku" is null; every new Record needs a value for it/],
    [{ sku: "" }, /primary key and cannot be empty/],
    [{ sku: 5 }, /sku.*text/],
    ["not an object", /must be an object/],
  ])("refuses %j", async (record, message) => {
    const res = await post(svc, `${CAT}/insert`, { records: [record] });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it("refuses bytes that are not UTF-8, naming where, and writes nothing (review 48a #3: two such keys were stored as one)", async () => {
    const before = await total();
    const bytes = Buffer.concat([Buffer.from('{"records":[{"sku":"U8'), Buffer.from([0xff]), Buffer.from('"}]}')]);
    const res = await svc.call(`${CAT}/insert`, { method: "POST", headers: { "content-type": "application/json" }, body: bytes });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe("validation_error");
    expect(body.message).toBe("records[0].sku: the body is not UTF-8 text at byte 22 (0xFF; another encoding, such as Latin-1): send JSON encoded as UTF-8. The request was not run.");
    expect(await total()).toBe(before);
    // A real U+FFFD, sent as UTF-8, is text like any other.
    expect((await post(svc, `${CAT}/insert`, { records: [{ sku: "U8\ufffd-real" }] })).status).toBe(200);
    const update = Buffer.concat([Buffer.from('{"filter":{"and":[]},"values":[{"key":"name","value":"Li'), Buffer.from([0xe9]), Buffer.from('sbon"}]}')]);
    const up = await svc.call(`${CAT}/update`, { method: "POST", headers: { "content-type": "application/json" }, body: update });
    expect(up.status).toBe(400);
    expect(((await up.json()) as { message: string }).message).toMatch(/^values\[0\]\.value: the body is not UTF-8 text at byte \d+ \(0xE9/);
  });

  it("refuses -0 (JSON.stringify cannot send it: the raw body does)", async () => {
    const res = await post(svc, `${CAT}/insert`, '{"records":[{"sku":"NEG0","price":-0}]}');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/-0/);
  });

  it("refuses a Field given twice in one Record, the key too, and writes nothing (review 54a #4: the last was kept)", async () => {
    const key = await post(svc, `${CAT}/insert`, '{"records":[{"sku":"DUP-1","sku":"DUP-2"}]}');
    expect(key.status).toBe(400);
    expect(key.body.message).toMatch(/^records\[0\] gives "sku" twice: /);
    const field = await post(svc, `${CAT}/insert`, '{"records":[{"sku":"DUP-3"},{"sku":"DUP-4","price":1,"price":2}]}');
    expect(field.status).toBe(400);
    expect(field.body.message).toContain('records[1] gives "price" twice');
    expect(await rows(inIds("DUP-1", "DUP-2", "DUP-3", "DUP-4"))).toEqual([]);
    // A filter's condition with its value twice is refused as well (it read the last).
    const q = await post(svc, `${CAT}/query`, '{"filter":{"and":[{"key":"sku","operator":"equal","value":"a","value":"b"}]}}');
    expect(q.status).toBe(400);
    expect(q.body.message).toContain('filter.and[0] gives "value" twice');
  });

  it("an existing primary key is 409 conflict naming it, and nothing of the batch is written", async () => {
    const res = await post(svc, `${CAT}/insert`, { records: [{ sku: "FRESH-1" }, { sku: "NEW-1" }] });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("conflict");
    expect(res.body.message).toContain('"NEW-1"');
    expect(res.body.message).toMatch(/^A Record with sku "NEW-1" already exists \(sku is the primary key, one Record each\); nothing was inserted\.$/);
    expect(await rows(inIds("FRESH-1"))).toEqual([]);
  });

  it("a primary key given twice in one batch is 409 naming it", async () => {
    const res = await post(svc, `${CAT}/insert`, { records: [{ sku: "TWICE" }, { sku: "TWICE" }] });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/"TWICE".*twice/);
    expect(await rows(inIds("TWICE"))).toEqual([]);
  });

  it("takes 1,000 Records and refuses 1,001", async () => {
    const batch = (n: number, p: string) => ({ records: Array.from({ length: n }, (_, i) => ({ employee_id: `${p}${i}`, age: i })) });
    expect((await post(svc, `${EMP}/insert`, batch(1001, "X"))).status).toBe(400);
    const res = await post(svc, `${EMP}/insert`, batch(1000, "BULK-"));
    expect(res.body).toEqual({ count: 1000 });
    expect((await post(svc, `${EMP}/query`, { filter: { and: [{ key: "employee_id", operator: "startsWith", value: "BULK-" }] }, limit: 0 })).body.count).toBe(1000);
  });

  it("refuses a body without records, and an unknown property", async () => {
    expect((await post(svc, `${CAT}/insert`, {})).status).toBe(400);
    expect((await post(svc, `${CAT}/insert`, { records: [], extra: 1 })).body.message).toMatch(/Unknown property "extra"/);
    expect((await post(svc, `${CAT}/insert`, { records: [] })).body).toEqual({ count: 0 });
  });

  it("an unknown table is 404; GET on the path says it takes POST", async () => {
    expect((await post(svc, "/v0/record/demo/nope/insert", { records: [] })).status).toBe(404);
    expect((await svc.call(`${CAT}/insert`)).status).toBe(404);
  });
});

describe("delete", () => {
  const del = (filter: unknown, expectedCount: unknown) => post(svc, `${CAT}/delete`, { filter, expectedCount });

  it("deletes exactly the matched Records when the count is the expected one", async () => {
    await post(svc, `${CAT}/insert`, { records: [{ sku: "DEL-1" }, { sku: "DEL-2" }, { sku: "DEL-3" }] });
    const before = await total();
    const res = await del(inIds("DEL-1", "DEL-2"), 2);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 2 });
    expect(await total()).toBe(before - 2);
    expect((await rows(inIds("DEL-1", "DEL-2", "DEL-3"))).map((r) => r.sku)).toEqual(["DEL-3"]);
  });

  it("asked with the before-images header, answers every Field of the Records it removed (read in its own transaction), at most that many", async () => {
    await post(svc, `${CAT}/insert`, { records: [{ sku: "DIM-1", name: "One", price: 1.5 }, { sku: "DIM-2", name: "Two", price: null }, { sku: "DIM-3", name: "Three" }] });
    const res = await post(svc, `${CAT}/delete`, { filter: inIds("DIM-1", "DIM-2"), expectedCount: 2 }, { [BEFORE_IMAGES_HEADER]: "10" });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    const fields: string[] = res.body.before.fields;
    // Every Field of the table, the primary key first.
    expect(fields[0]).toBe("sku");
    expect(fields).toEqual(expect.arrayContaining(["sku", "name", "price"]));
    const gone = res.body.before.rows.map((r: unknown[]) => Object.fromEntries(fields.map((f: string, i: number) => [f, r[i]])));
    expect(gone.sort((a: RecordRow, b: RecordRow) => String(a.sku).localeCompare(String(b.sku)))).toEqual([
      expect.objectContaining({ sku: "DIM-1", name: "One", price: 1.5 }),
      expect.objectContaining({ sku: "DIM-2", name: "Two", price: null }),
    ]);
    // At most as many as asked: the count says how many went.
    await post(svc, `${CAT}/insert`, { records: [{ sku: "DIM-4" }] });
    const one = await post(svc, `${CAT}/delete`, { filter: inIds("DIM-3", "DIM-4"), expectedCount: 2 }, { [BEFORE_IMAGES_HEADER]: "1" });
    expect(one.body.count).toBe(2);
    expect(one.body.before.rows).toHaveLength(1);
    expect((await post(svc, `${CAT}/delete`, { filter: inIds("NOPE"), expectedCount: 0 }, { [BEFORE_IMAGES_HEADER]: "1" })).body).toEqual({ count: 0, before: { fields, rows: [] } });
    expect((await post(svc, `${CAT}/delete`, { filter: inIds("NOPE"), expectedCount: 0 }, { [BEFORE_IMAGES_HEADER]: "0" })).status).toBe(400);
  });

  it("a count other than expectedCount is 409 and deletes nothing", async () => {
    const before = await total();
    for (const expected of [0, 1, 3]) {
      const res = await del({ and: [{ key: "sku", operator: "startsWith", value: "NEW-" }] }, expected);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe("conflict");
      expect(res.body.message).toMatch(/matches 2 Records, not the \d expected; nothing was deleted/);
    }
    expect(await total()).toBe(before);
  });

  it("an expectedCount past what a number holds exactly says what to send", async () => {
    const res = await del(inIds("NOT-THERE"), 1e20);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("expectedCount must be a whole number from 0 to 9,007,199,254,740,991: the number of Records you expect the filter to match");
  });

  it("no match with expectedCount 0 answers 0", async () => {
    expect((await del(inIds("NOT-THERE"), 0)).body).toEqual({ count: 0 });
  });

  it.each([
    [{ expectedCount: 1 }, /filter is required/],
    // Named once, not "expectedCount: expectedCount must be" (review 38a #8).
    [{ filter: { and: [] } }, /^expectedCount must be the number of Records you expect the filter to match\.$/],
    [{ filter: { and: [] }, expectedCount: "3" }, /^expectedCount must be the number/],
    [{ filter: { and: [] }, expectedCount: -1 }, /negative/],
    [{ filter: { and: [] }, expectedCount: 1.5 }, /whole number/],
    [{ filter: { and: [eq("nope", 1)] }, expectedCount: 1 }, /nope/],
    [{ filter: { and: [eq("price", "abc")] }, expectedCount: 1 }, /price/],
  ])("refuses %j", async (body, message) => {
    const res = await post(svc, `${CAT}/delete`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it("deletes every Record on purpose with {and: []} and the whole count", async () => {
    const n = await total(EMP);
    expect((await post(svc, `${EMP}/delete`, { filter: { and: [] }, expectedCount: n - 1 })).status).toBe(409);
    expect((await post(svc, `${EMP}/delete`, { filter: { and: [] }, expectedCount: n })).body).toEqual({ count: n });
    expect(await total(EMP)).toBe(0);
  });
});

describe("capabilities", () => {
  it("/v0/meta advertises insert, deleteRecords and distinct", async () => {
    const meta = await get(svc, "/v0/meta");
    expect(meta.body.capabilities).toMatchObject({ insert: true, deleteRecords: true, distinct: true, anyOf: true, deletedImages: true });
  });
});

describe("SERVICE_PROFILE=interface", () => {
  it("has no insert, delete or distinct (404, as an upstream that never had them)", async () => {
    const plain = await startTestService({ profile: "interface" });
    try {
      for (const op of ["insert", "delete", "distinct"]) {
        const res = await post(plain, `${CAT}/${op}`, { records: [], filter: { and: [] }, expectedCount: 0 });
        expect(res.status).toBe(404);
      }
      expect((await post(plain, `${CAT}/query`, { limit: 0 })).status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});

describe("distinct values", () => {
  it("lists the most frequent values first, filtered by a case-folded prefix, within the limit", async () => {
    await post(svc, `${CAT}/insert`, { records: [{ sku: "D-1", name: "Zebra" }, { sku: "D-2", name: "Zebra" }, { sku: "D-3", name: "zoo" }, { sku: "D-4", name: "Apple" }] });
    const res = await post(svc, `${CAT}/distinct`, { key: "name", prefix: "z", limit: 5 });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([{ value: "Zebra", count: 2 }, { value: "zoo", count: 1 }]);
    expect((await post(svc, `${CAT}/distinct`, { key: "name", limit: 1 })).body.items).toHaveLength(1);
  });

  it("matches a number's or a boolean's prefix as its text (lower() of a number was a 500)", async () => {
    await post(svc, `${CAT}/insert`, { records: [{ sku: "DN-1", name: "n", price: 3333.5, in_stock: true }, { sku: "DN-2", name: "n", price: 33331, in_stock: false }] });
    const prices = await post(svc, `${CAT}/distinct`, { key: "price", prefix: "3333", limit: 10 });
    expect(prices.status).toBe(200);
    expect(prices.body.items.map((i: { value: number }) => i.value).sort()).toEqual([3333.5, 33331]);
    const flags = await post(svc, `${CAT}/distinct`, { key: "in_stock", prefix: "T", limit: 10 });
    expect(flags.status).toBe(200);
    expect(flags.body.items.map((i: { value: boolean }) => i.value)).toEqual([true]);
  });

  it("orders ties by value, also for a Field named as the answer's columns (n, v: review 53a #5)", async () => {
    const csv = ["id,n,v", "1,delta,w", "2,alpha,y", "3,charlie,x", "4,bravo,z"].join("\n");
    expect((await svc.call("/v0/record/demo/named_nv/import", { method: "POST", headers: { "content-type": "text/csv" }, body: csv })).status).toBe(200);
    for (const [key, want] of [["n", ["alpha", "bravo", "charlie"]], ["v", ["w", "x", "y"]]] as const) {
      const res = await post(svc, "/v0/record/demo/named_nv/distinct", { key, limit: 3 });
      expect(res.status).toBe(200);
      expect(res.body.items.map((i: { value: string }) => i.value), key).toEqual(want);
    }
  });

  it.each([
    [{ key: "nope" }, /unknown Field/],
    [{ key: "specs" }, /json/],
    [{ key: "name", limit: 101 }, /at most 100/],
    [{}, /key/],
  ])("refuses %j", async (body, message) => {
    const res = await post(svc, `${CAT}/distinct`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe("anyOf", () => {
  it("matches any of the listed values, and nothing for an empty list", async () => {
    const q = (value: unknown) => post(svc, `${CAT}/query`, { filter: { and: [{ key: "sku", operator: "anyOf", value }] } });
    expect((await q(["D-1", "D-4", "missing"])).body.items.map((r: RecordRow) => r.sku).sort()).toEqual(["D-1", "D-4"]);
    expect((await q([])).body.count).toBe(0);
    const bad = await post(svc, `${CAT}/query`, { filter: { and: [{ key: "price", operator: "anyOf", value: [1, "x"] }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/value\[1\]/);
  });
});
