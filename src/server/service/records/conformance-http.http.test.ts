/**
 * Conformance, written from the interface (§4, §5, §7) and decisions (§1, §6) alone: auth,
 * scoped keys and path 1a, headers and content types, methods, odd URLs, body limits, and a
 * little fuzzing that must never produce a 500 or a body outside the error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../testing/test-service";
import { cond, expectError, expectItems, post, send } from "./testing/client";

const CAT = "/v0/record/demo/catalog";
const EMP = "/v0/record/demo/employees";
const DATA_API = "/v0/data-api/record/query";
const SCOPED = "scoped-catalog-key-0123";
const one = { and: [cond("sku", "equal", "SKU-001")] };

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    apiKeys: [{ key: "test-key-0123456789abcdef" }, { key: SCOPED, scope: { databaseId: "demo", tableSlug: "catalog" } }],
  });
});
afterAll(() => svc.close());

describe("authentication (interface §5, §7; decisions §6)", () => {
  const invalid = /API key is invalid/i;
  const endpoints: [string, string, unknown][] = [
    ["POST", `${CAT}/query`, {}],
    ["POST", `${CAT}/update`, { filter: one, values: [{ key: "price", value: 1 }] }],
    ["POST", DATA_API, {}],
    ["GET", `${CAT}/fields`, undefined],
    ["GET", "/v0/meta", undefined],
  ];
  for (const [method, path, body] of endpoints) {
    for (const [label, key] of [["missing", undefined], ["wrong", "wrong-key"], ["empty", ""], ["longer", "test-key-0123456789abcdefx"], ["shorter", "test-key-0123456789abcde"]] as const) {
      it(`${method} ${path} with a ${label} key → 401 auth_error subCode 4`, async () => {
        const r = await send(svc, method, path, { body, headers: { "x-api-key": key } });
        expectError(r, 401, invalid);
        expect(r.body.subCode).toBe(4);
      });
    }
  }

  it("leaves the data unchanged after an update with a bad key", async () => {
    await post(svc, `${CAT}/update`, { filter: { and: [] }, values: [{ key: "price", value: 0 }] }, { "x-api-key": "nope" });
    const { items } = expectItems(await post(svc, `${CAT}/query`, { select: ["price"], filter: { and: [cond("price", "equal", 0)] } }));
    expect(items).toEqual([]);
  });

  it("accepts client-type: widget (sent in every Record example)", async () => {
    expectItems(await post(svc, `${CAT}/query`, { limit: 1 }, { "client-type": "widget" }));
  });
});

describe("scoped keys and path 1a", () => {
  const scoped = { "x-api-key": SCOPED };

  it("queries its own table on path 1 and path 1a with the same body shape and answer", async () => {
    const body = { select: ["sku", "price"], filter: { and: [cond("price", "greaterThan", 100)] }, sort: [{ key: "price", direction: "descending" }], limit: 2, skip: 1 };
    const a = expectItems(await post(svc, `${CAT}/query`, body, scoped));
    const b = expectItems(await post(svc, DATA_API, body, scoped));
    expect(b).toEqual(a);
    expect(a.count).toBe(4);
    expect(a.items.map((r) => r.sku)).toEqual(["SKU-002", "SKU-008"]);
  });

  it("gets 403 forbidden for another table: query, update, fields", async () => {
    expectError(await post(svc, `${EMP}/query`, {}, scoped), 403, /scoped/);
    expectError(await post(svc, `${EMP}/update`, { filter: { and: [] }, values: [{ key: "age", value: 1 }] }, scoped), 403);
    expectError(await send(svc, "GET", `${EMP}/fields`, { headers: scoped }), 403);
    expectError(await post(svc, "/v0/record/demo/nope/query", {}, scoped), 403);
  });

  it("cannot read another table through a join (403)", async () => {
    const join = [{ targetTable: "departments", rules: [{ tableKey: "name", targetTableKey: "department" }] }];
    expectError(await post(svc, `${CAT}/query`, { join }, scoped), 403, /join\[0\]/);
    expectError(await post(svc, DATA_API, { join }, scoped), 403);
  });

  it("sees only its table in meta", async () => {
    const r = await send(svc, "GET", "/v0/meta", { headers: scoped });
    expect(r.status).toBe(200);
    expect(r.body.databases).toEqual([{ id: "demo", tables: [{ slug: "catalog", primaryKey: "sku" }] }]);
  });

  it("answers path 1a with an unscoped key by a 400 that says to scope the key", async () => {
    expectError(await post(svc, DATA_API, {}), 400, /scoped/);
  });
});

describe("fields and meta extensions (decisions §3)", () => {
  it("lists every Field with its type, nullability and the one primary key", async () => {
    const r = await send(svc, "GET", `${CAT}/fields`);
    expect(r.status).toBe(200);
    const items = r.body.items as { key: string; type: string; nullable: boolean; primaryKey: boolean }[];
    expect(items.map((f) => [f.key, f.type])).toEqual([
      ["sku", "text"], ["name", "text"], ["price", "number"], ["in_stock", "boolean"],
      ["added_at", "datetime"], ["specs", "json"], ["image", "image"], ["manual", "attachment"],
    ]);
    expect(items.filter((f) => f.primaryKey).map((f) => [f.key, f.nullable])).toEqual([["sku", false]]);
    expect(items.filter((f) => !f.primaryKey).every((f) => f.nullable)).toBe(true);
  });

  it("describes databases, tables and buckets in meta", async () => {
    const r = await send(svc, "GET", "/v0/meta");
    expect(r.status).toBe(200);
    expect(r.body.databases[0].tables.map((t: { slug: string }) => t.slug).sort()).toEqual(["catalog", "departments", "employees"]);
    expect(r.body.buckets.map((b: { name: string; permission: string }) => [b.name, b.permission])).toEqual([
      ["public-assets", "public"], ["team-files", "limitedPublic"], ["vault", "forbidden"],
    ]);
  });
});

describe("content types and bodies", () => {
  it.each([
    ["application/json; charset=utf-8"],
    ["application/json;charset=UTF-8"],
    ["Application/JSON"],
    [undefined],
  ])("parses a JSON body sent with Content-Type %s", async (type) => {
    const r = await post(svc, `${CAT}/query`, '{"limit":1,"select":["sku"]}', { "content-type": type });
    expect(expectItems(r).items).toEqual([{ sku: "SKU-001" }]);
  });

  it.each([["text/plain"], ["application/x-www-form-urlencoded"], ["multipart/form-data; boundary=x"]])(
    "refuses Content-Type %s with a 400 that says to send application/json",
    async (type) => {
      expectError(await post(svc, `${CAT}/query`, '{"limit":1}', { "content-type": type }), 400, /application\/json/);
    },
  );

  it("treats a query without a body (or an empty one) as {} — every property is optional", async () => {
    for (const headers of [{}, { "content-type": "application/json" }]) {
      const r = expectItems(await send(svc, "POST", `${CAT}/query`, { headers }));
      expect(r.count).toBe(8);
      expect(r.items).toHaveLength(8);
    }
  });

  it.each([["[]"], ["null"], ["42"], ['"text"'], ["true"], ["[{}]"]])("refuses the non-object body %s with 400", async (body) => {
    expectError(await post(svc, `${CAT}/query`, body), 400, /JSON object/);
    expectError(await post(svc, `${CAT}/update`, body), 400);
  });

  it.each([["{"], ['{"limit":}'], ["{'limit':1}"], ["{\"limit\":1,}"], ["NaN"]])("refuses the malformed JSON %s with 400", async (body) => {
    expectError(await post(svc, `${CAT}/query`, body), 400, /not valid JSON/);
  });

  it("refuses a body over 1 MiB with 413, with or without a key, JSON or not", async () => {
    const big = JSON.stringify({ select: ["sku"], x: "a".repeat(1024 * 1024) });
    expectError(await post(svc, `${CAT}/query`, big), 413, /1 MiB/);
    expectError(await post(svc, `${CAT}/update`, big), 413);
    expectError(await post(svc, `${CAT}/query`, big, { "content-type": undefined }), 413);
    expectError(await post(svc, `${CAT}/query`, `{${" ".repeat(1024 * 1024)}`), 413);
  });

  it("refuses a key given twice in one object, naming where (JSON.parse would keep the last: review 54a #4)", async () => {
    const res = await post(svc, `${CAT}/query`, '{"limit":5,"limit":1}');
    expectError(res, 400);
    expect(res.body.message).toMatch(/^The body gives "limit" twice/);
  });
});

describe("methods and paths", () => {
  it.each([
    ["GET", `${CAT}/query`],
    ["PUT", `${CAT}/query`],
    ["DELETE", `${CAT}/query`],
    ["PATCH", `${CAT}/update`],
    ["GET", `${CAT}/update`],
    ["OPTIONS", `${CAT}/query`],
    ["GET", DATA_API],
    ["POST", `${CAT}/fields`],
    ["DELETE", `${CAT}/fields`],
  ])("%s %s → 404 in the error shape", async (method, path) => {
    const body = method === "GET" || method === "OPTIONS" ? undefined : "{}";
    expectError(await send(svc, method, path, { body }), 404);
  });

  it("answers HEAD on a POST path with a 404 and no 500", async () => {
    expect((await send(svc, "HEAD", `${CAT}/query`)).status).toBe(404);
  });

  it.each([
    ["/v0/record/nodb/catalog/query", 404],
    ["/v0/record/demo/nope/query", 404],
    ["/v0/record/demo/__proto__/query", 404],
    ["/v0/record/constructor/toString/query", 404],
    ["/v0/record/demo/catalog/query/", 404],
    ["/v1/record/demo/catalog/query", 404],
    ["/v0/record/demo/%E0%A4%A/query", 400],
    ["/v0/record/demo/%zz/query", 400],
    [`/v0/record/demo/${"x".repeat(500)}/query`, 400],
  ])("POST %s → %i in the error shape", async (path, status) => {
    expectError(await post(svc, path, {}), status);
  });

  it("names an unknown table in its 404", async () => {
    expectError(await post(svc, "/v0/record/demo/nope/query", {}), 404, /"nope"/);
    expectError(await send(svc, "GET", "/v0/record/demo/nope/fields"), 404, /"nope"/);
  });
});

describe("messages stay readable", () => {
  it.each([
    [{ select: ["x".repeat(200_000)] }],
    [{ filter: { and: [cond("y".repeat(200_000), "equal", 1)] } }],
    [{ filter: { and: [cond("name", "z".repeat(200_000), 1)] } }],
    [{ filter: { and: [{ key: "name", operator: "equal", value: "a", ["w".repeat(200_000)]: 1 }] } }],
    [{ ["v".repeat(200_000)]: 1 }],
  ])("clips a huge client-sent name in the 400 message", async (body) => {
    const r = await post(svc, `${CAT}/query`, body);
    expectError(r, 400);
    expect(r.body.message.length).toBeLessThan(1000);
  });
});

describe("fuzz: odd JSON never gives a 500", () => {
  const deepArray = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  const bodies: unknown[] = [
    { select: null, join: null, filter: null, sort: null, limit: null, skip: null },
    { select: [null], sort: [null], join: [null] },
    { select: [{}], sort: [[]], join: [[]] },
    { filter: { and: [{ key: null, operator: null, value: null }] } },
    { filter: { and: [{ key: {}, operator: [], value: {} }] } },
    { filter: { and: [[]] } },
    { filter: { and: [{ and: null }] } },
    { filter: { or: [{ key: "price", operator: "equal", value: 1e308 }, { key: "price", operator: "lessThan", value: -1e308 }] } },
    '{"filter":{"and":[{"key":"price","operator":"equal","value":1e400}]}}',
    '{"limit":1e400}',
    '{"skip":-1e400}',
    "{\"limit\":9007199254740993}",
    "{\"skip\":9223372036854775808}",
    { "ключ": 1, "🔑": [] },
    { select: ["ключ", "🔑", "__proto__", "constructor", "toString", "hasOwnProperty"] },
    { sort: [{ key: "__proto__", direction: "ascending" }] },
    { filter: { and: [cond("constructor", "equal", "x")] } },
    { filter: { and: [cond("name", "equal", "x".repeat(500_000))] } },
    { filter: { and: [cond("x".repeat(200_000), "equal", "x")] } },
    { filter: { and: [cond("name", "contains", "\u0000\ud800%_\\'\"")] } },
    '{"__proto__":{"limit":1}}',
    '{"filter":{"__proto__":[],"and":[]}}',
    '{"filter":{"and":[{"key":"sku","operator":"equal","value":"a","__proto__":{}}]}}',
    `{"filter":{"and":[${deepArray}]}}`,
    { join: [{ targetTable: "__proto__", rules: [{ tableKey: "sku", targetTableKey: "sku" }] }] },
    { join: [{ targetTable: "catalog", rules: Array.from({ length: 5000 }, () => ({ tableKey: "sku", targetTableKey: "sku" })) }] },
    { select: Array.from({ length: 50_000 }, () => "*") },
    { sort: Array.from({ length: 5000 }, (_, i) => ({ key: i % 2 ? "sku" : "price", direction: "descending" })) },
    { filter: { or: Array.from({ length: 6000 }, (_, i) => cond("sku", "equal", `SKU-${i}`)) } },
  ];
  it.each(bodies.map((b, i) => [i, b] as const))("query body #%i", async (_i, body) => {
    const r = await post(svc, `${CAT}/query`, body);
    expect(r.status, r.text.slice(0, 300)).toBeLessThan(500);
    if (r.status !== 200) expectError(r, r.status);
  });

  const updates: unknown[] = [
    { filter: one, values: [{ key: "specs", value: { "🔑": [null, { "__proto__": 1 }], "": "" } }] },
    { filter: one, values: [{ key: "name", value: "ü".repeat(300_000) }] },
    '{"filter":{"and":[]},"values":[{"key":"price","value":1e400}]}',
    { filter: one, values: [{ key: "__proto__", value: 1 }] },
    { filter: one, values: [{ key: "toString", value: 1 }] },
    { filter: one, values: [null] },
    { filter: one, values: [[]] },
    { filter: one, values: [{ key: "price", value: 1 }], fixedValue: [null] },
  ];
  it.each(updates.map((b, i) => [i, b] as const))("update body #%i", async (_i, body) => {
    const r = await post(svc, `${CAT}/update`, body);
    expect(r.status, r.text.slice(0, 300)).toBeLessThan(500);
    if (r.status !== 200) expectError(r, r.status);
  });
});
