/** Bad input over real HTTP: each gets the right status and message, and no data changes. */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RecordRow } from "../../../shared/records";
import { startTestService, type TestService } from "../testing/test-service";
import { EMP, post } from "./testing/http";

let svc: TestService;
let before: RecordRow[];
const snapshot = async (): Promise<RecordRow[]> => (await post(svc, `${EMP}/query`, { limit: 10_000 })).body.items;
const twoMiB = JSON.stringify({ values: [{ key: "city", value: "x".repeat(2 * 1024 * 1024) }], filter: { and: [] } });
const deepArray = `${"[".repeat(400_000)}${"]".repeat(400_000)}`;

beforeAll(async () => {
  svc = await startTestService();
  before = await snapshot();
});
afterAll(() => svc.close());

const cases: [string, string, string | undefined, Record<string, string>, number, string, RegExp][] = [
  ["garbage JSON", "update", "{values: [", {}, 400, "validation_error", /not valid JSON/],
  ["truncated JSON", "query", '{"filter": {"and": [', {}, 400, "validation_error", /^The request body is not valid JSON: it ends before the JSON does \(cut short\?\)\. Send one JSON value/],
  // In our words, never the parser's echo of the body (review 51a #4).
  ["a stray character", "query", '{"limit": 1]', {}, 400, "validation_error", /^The request body is not valid JSON: expected ',' or '}' after property value at character 12\. Send one JSON value/],
  ["a stray token", "query", '[1,]', {}, 400, "validation_error", /^The request body is not valid JSON: unexpected character "\]"\. Send one JSON value/],
  ["a body labelled gzip", "query", '{"limit": 1}', { "content-encoding": "gzip" }, 400, "validation_error", /^The body is sent with Content-Encoding: gzip, which is not read here: send it uncompressed/],
  ["a JSON array body", "update", "[]", {}, 400, "validation_error", /must be a JSON object/],
  ["a JSON string body", "query", '"hello"', {}, 400, "validation_error", /must be a JSON object/],
  ["an empty JSON body", "update", "", {}, 400, "validation_error", /update body is missing/],
  ["a text/plain body", "update", "values=1", { "content-type": "text/plain" }, 400, "validation_error", /application\/json/],
  ["a 2 MiB update", "update", twoMiB, {}, 413, "payload_too_large", /1 MiB/],
  ["a 2 MiB query", "query", JSON.stringify({ select: Array(300_000).fill("employee_id") }), {}, 413, "payload_too_large", /1 MiB/],
  ["wrong types", "update", JSON.stringify({ values: "age=1", filter: { and: [] } }), {}, 400, "validation_error", /^values must be an array/],
  ["an unknown property", "update", JSON.stringify({ value: [], filter: { and: [] } }), {}, 400, "validation_error", /Unknown property "value"/],
  ["both and and or", "update", JSON.stringify({ values: [{ key: "age", value: 1 }], filter: { and: [], or: [] } }), {}, 400, "validation_error", /both "and" and "or"/],
  ["an unknown operator", "update", JSON.stringify({ values: [{ key: "age", value: 1 }], filter: { and: [{ key: "age", operator: "like", value: 1 }] } }), {}, 400, "validation_error", /unknown operator "like"/],
  ["an unknown Field", "query", JSON.stringify({ sort: [{ key: "wage", direction: "ascending" }] }), {}, 400, "validation_error", /unknown Field "wage"/],
  ["a negative limit", "query", JSON.stringify({ limit: -5 }), {}, 400, "validation_error", /limit must be an integer from 0 to 10,000/],
  ["a huge limit", "query", JSON.stringify({ limit: 1e12 }), {}, 400, "validation_error", /limit must be an integer from 0 to 10,000/],
  ["a huge skip", "query", JSON.stringify({ skip: 1e300 }), {}, 400, "validation_error", /skip must be a non-negative integer/],
  ["a deeply nested array in a filter", "query", `{"filter":{"and":[${deepArray}]}}`, {}, 400, "validation_error", /filter\.and\[0\] must be a condition/],
  ["a deeply nested json value", "update", `{"filter":{"and":[]},"values":[{"key":"city","value":${deepArray}}]}`, {}, 400, "validation_error", /"city" is text/],
  ["a NUL character in a text value", "update", JSON.stringify({ values: [{ key: "city", value: "Lis\u0000bon" }], filter: { and: [] } }), {}, 400, "validation_error", /"city" contains the NUL character/],
  ["a NUL character in a filter value", "query", JSON.stringify({ filter: { and: [{ key: "city", operator: "contains", value: "\u0000" }] } }), {}, 400, "validation_error", /NUL character/],
  ["a lone surrogate half in a text value", "update", '{"values":[{"key":"city","value":"Zu\\ud83drich"}],"filter":{"and":[]}}', {}, 400, "validation_error", /"city" contains half of a surrogate pair alone/],
  ["a lone surrogate half in a new primary key", "insert", '{"records":[{"employee_id":"LS-\\ud800"}]}', {}, 400, "validation_error", /"employee_id" contains half of a surrogate pair alone/],
  ["a lone surrogate half in a filter value", "query", '{"filter":{"and":[{"key":"city","operator":"equal","value":"\\udc00"}]}}', {}, 400, "validation_error", /half of a surrogate pair alone/],
  ["a number with more digits than a double keeps", "update", '{"values":[{"key":"age","value":0.1000000000000000055511}],"filter":{"and":[]}}', {}, 400, "validation_error", /^values\[0\]\.value \(Field "age"\): the number 0\.1000000000000000055511 would be read as 0\.1/],
  ["a number that underflows to 0", "insert", '{"records":[{"employee_id":"OK","age":3},{"employee_id":"TINY","age":1e-400}]}', {}, 400, "validation_error", /^records\[1\]\.age: the number 1e-400 would be read as 0/],
  // Named with the Field and the condition it is in (review 32a #2).
  ["a rounded number in a filter", "query", '{"filter":{"and":[{"key":"age","operator":"equal","value":1},{"key":"age","operator":"lessThan","value":12345678901234567}]}}', {}, 400, "validation_error", /^filter\.and\[1\]\.value \(Field "age"\): the number 12345678901234567 would be read as 12345678901234568/],
  ["a __proto__ key", "update", '{"__proto__":{"x":1},"values":[{"key":"age","value":1}],"filter":{"and":[]}}', {}, 400, "validation_error", /./],
];

it.each(cases)("refuses %s", async (_name, endpoint, body, headers, status, error, message) => {
  const res = await svc.call(`${EMP}/${endpoint}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  const json = await res.json();
  expect(res.status).toBe(status);
  expect(json).toMatchObject({ error, subCode: expect.any(Number), message: expect.stringMatching(message) });
  expect(json.message).not.toMatch(/at .*\.ts:\d+/);
});

// Numbers and text inside a json Field hold by the Field rules (review 31a #3: 16-digit
// integers were rounded, 1e400 stored as null, -0 as 0).
const CAT = "/v0/record/demo/catalog";
const jsonCases: [string, string, string, RegExp][] = [
  ["an integer past 2^53 − 1", "update", '{"values":[{"key":"specs","value":9007199254740993}],"filter":{"and":[]}}', /"specs" is beyond ±9,007,199,254,740,991/],
  ["an integer past 2^53 − 1, deep", "update", '{"values":[{"key":"specs","value":{"v":[1,9999999999999999]}}],"filter":{"and":[]}}', /beyond .*\(at v\[1\] in the json value\)/],
  ["1e400", "insert", '{"records":[{"sku":"JSON-INF","specs":{"v":1e400}}]}', /is not a finite number \(at v in the json value\)/],
  ["-0", "update", '{"values":[{"key":"specs","value":{"a":-0}}],"filter":{"and":[]}}', /is -0/],
  ["a NUL in its text", "update", '{"values":[{"key":"specs","value":{"a":"x\\u0000y"}}],"filter":{"and":[]}}', /NUL character/],
];
it.each(jsonCases)("refuses, in a json Field, %s", async (_name, endpoint, body, message) => {
  const res = await svc.call(`${CAT}/${endpoint}`, { method: "POST", body, headers: { "content-type": "application/json" } });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ error: "validation_error", message: expect.stringMatching(message) });
});

it("refuses, in a json cell of an import, a number it would round and nothing is imported", async () => {
  for (const cell of ['"{""v"":9007199254740993}"', '"[1e400]"', "-0"]) {
    const csv = `sku,specs\nJSON-IMP,${cell}\n`;
    const res = await svc.call(`${CAT}/import`, { method: "POST", body: csv, headers: { "content-type": "text/csv" } });
    expect(res.status, cell).toBe(400);
    expect((await res.json()).message, cell).toMatch(/refused rather than rounded/);
  }
  expect((await post(svc, `${CAT}/query`, { filter: { and: [{ key: "sku", operator: "equal", value: "JSON-IMP" }] } })).body.items).toEqual([]);
});

it("leaves every Record unchanged after all of it", async () => {
  expect(await snapshot()).toEqual(before);
});
