/** Table-driven tests of the pure filter → SQL compiler (no database: Kysely compiles only). */
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { parseFilter } from "../../../shared/filter-parse";
import type { FieldType } from "../../../shared/records";
import { duckDbDialect } from "../engines/duckdb/dialect";
import type { Dialect } from "../engines/engine";
import { conditionSql } from "./filter-condition";
import { compileFilter } from "./filter-sql";

const db = new Kysely<any>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
// A stub engine dialect: folding spelled out so the expected SQL shows where it applies.
const dialect: Dialect = {
  ...duckDbDialect,
  foldedMatch: (h, n, how) => (how === "contains" ? sql<boolean>`contains(fold(${h}), fold(${n}))` : sql<boolean>`starts_with(fold(${h}), fold(${n}))`),
  bool: (v) => (v ? 1 : 0),
};
const types: Record<string, FieldType> = { id: "text", name: "text", age: "number", ok: "boolean", born: "date", at: "datetime", doc: "json", pic: "image" };

function compile(raw: unknown, maxHeight = 100) {
  const parsed = parseFilter(raw);
  if (!parsed.ok) return parsed;
  const result = compileFilter(parsed.value, {
    name: "filter",
    maxHeight,
    condition: (c) => {
      const type = types[c.key];
      if (!type) return { ok: false, error: { code: "validation_error", message: `unknown ${c.key}` } };
      // "id" stands for the queried table's primary key: never null.
      const neverNull = c.key === "id";
      return conditionSql({ ref: sql.id(c.key), field: { key: c.key, type, nullable: !neverNull }, name: c.key, neverNull }, c, dialect);
    },
  });
  if (!result.ok) return result;
  const q = db.selectFrom("t").select("x").where(result.value.sql).compile();
  return { ok: true as const, sql: q.sql.replace('select "x" from "t" where ', ""), params: q.parameters, height: result.value.height };
}

const one = (key: string, operator: string, value?: unknown) => ({ and: [{ key, operator, ...(value === undefined ? {} : { value }) }] });

describe("conditions compile to SQL with bound values", () => {
  const cases: [string, unknown, string, unknown[]][] = [
    ["equal text", one("name", "equal", "Ann"), `"name" = ?`, ["Ann"]],
    ["equal number", one("age", "equal", 42), `"age" = ?`, [42]],
    ["equal numeric string", one("age", "equal", " 4.2e1 "), `"age" = ?`, [42]],
    ["equal null", one("age", "equal", null), `"age" is null`, []],
    ["notEqual null", one("name", "notEqual", null), `"name" is not null`, []],
    ["notEqual includes null", one("name", "notEqual", "x"), `("name" is null or "name" <> ?)`, ["x"]],
    ["notEqual on a column never null: a range the zone maps prune", one("id", "notEqual", "x"), `("id" < ? or "id" > ?)`, ["x", "x"]],
    ["greaterThan", one("age", "greaterThan", "7"), `"age" > ?`, [7]],
    ["greaterThanOrEqual date", one("born", "greaterThanOrEqual", "2020-02-29"), `"born" >= ?`, ["2020-02-29"]],
    ["lessThan datetime normalizes to UTC", one("at", "lessThan", "2024-01-01T02:00:00+02:00"), `"at" < ?`, ["2024-01-01T00:00:00.000Z"]],
    ["lessThanOrEqual text", one("name", "lessThanOrEqual", "M"), `"name" <= ?`, ["M"]],
    ["contains folds case", one("name", "contains", "ÄB"), `contains(fold("name"), fold(?))`, ["ÄB"]],
    ["notContains includes null", one("pic", "notContains", "x"), `("pic" is null or not contains(fold("pic"), fold(?)))`, ["x"]],
    ["startsWith", one("name", "startsWith", "An"), `starts_with(fold("name"), fold(?))`, ["An"]],
    ["contains on a date", one("born", "contains", "-02-"), `contains(fold("born"), fold(?))`, ["-02-"]],
    ["isEmpty text", one("name", "isEmpty"), `("name" is null or "name" = '')`, []],
    ["isNotEmpty text", one("name", "isNotEmpty"), `("name" is not null and "name" <> '')`, []],
    ["isEmpty number", one("age", "isEmpty"), `"age" is null`, []],
    ["isNotEmpty json", one("doc", "isNotEmpty", "ignored"), `"doc" is not null`, []],
    ["equal boolean", one("ok", "equal", true), `"ok" = ?`, [1]],
    ["equal boolean string", one("ok", "equal", "false"), `"ok" = ?`, [0]],
    ["equal null json", one("doc", "equal", null), `"doc" is null`, []],
    ["isFixed ignored", { and: [{ key: "age", operator: "equal", value: 1, isFixed: true }] }, `"age" = ?`, [1]],
  ];
  it.each(cases)("%s", (_name, raw, expectedSql, params) => {
    const out = compile(raw);
    expect(out.ok && out.sql).toBe(expectedSql);
    expect(out.ok && out.params).toEqual(params);
  });
});

describe("operators are checked against the Field type before SQL is built", () => {
  const cases: [unknown, RegExp][] = [
    [one("age", "contains", "1"), /operator contains does not apply to Field "age" \(number\); use one of: equal, notEqual, greaterThan/],
    [one("ok", "greaterThan", true), /greaterThan does not apply to Field "ok" \(boolean\)/],
    [one("doc", "equal", "x"), /"doc" is json; equal needs null/],
    [one("age", "equal", "12abc"), /"age" is number; equal needs a number or a numeric string, not "12abc"/],
    [one("age", "equal", true), /needs a number or a numeric string, not true/],
    [one("ok", "equal", "yes"), /"ok" is boolean; equal needs true or false/],
    [one("born", "equal", "2021-02-29"), /"born" is date; equal needs a date string "YYYY-MM-DD"/],
    [one("at", "greaterThan", "2024-01-01"), /"at" is datetime; greaterThan needs an ISO 8601 date-time/],
    [one("name", "equal", 3), /"name" is text; equal needs a string, not 3/],
    [one("name", "contains", 3), /contains needs a string value/],
    [one("name", "lessThan", null), /cannot compare with null/],
    [one("name", "equal"), /needs a "value"/],
  ];
  it.each(cases)("%j", (raw, message) => {
    const out = compile(raw);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.message).toMatch(message);
  });
});

describe("groups", () => {
  const c = (v: number) => ({ key: "age", operator: "equal", value: v });
  const cases: [string, unknown, string][] = [
    ["and of two", { and: [c(1), c(2)] }, `("age" = ? and "age" = ?)`],
    ["or of three, balanced", { or: [c(1), c(2), c(3)] }, `("age" = ? or ("age" = ? or "age" = ?))`],
    ["and of four, balanced", { and: [c(1), c(2), c(3), c(4)] }, `(("age" = ? and "age" = ?) and ("age" = ? and "age" = ?))`],
    ["empty and is true", { and: [] }, "1 = 1"],
    ["empty or is false", { or: [] }, "1 = 0"],
    ["nested kinds keep parentheses", { and: [c(1), { or: [c(2), { and: [] }] }] }, `("age" = ? and ("age" = ? or 1 = 1))`],
  ];
  it.each(cases)("%s", (_name, raw, expectedSql) => {
    const out = compile(raw);
    expect(out.ok && out.sql).toBe(expectedSql);
  });

  it("binds values in the order they appear", () => {
    const out = compile({ or: [c(1), { and: [c(2), c(3)] }, c(4), c(5)] });
    expect(out.ok && out.params).toEqual([1, 2, 3, 4, 5]);
  });

  it("adds log2(n) height for a wide group, not n", () => {
    const out = compile({ and: Array.from({ length: 4096 }, (_, i) => c(i)) }, 1000);
    expect(out.ok && out.height).toBe(2 + 12);
  });

  it("refuses what is still too deep after flattening, naming the depth", () => {
    let raw: unknown = c(0);
    for (let i = 0; i < 150; i++) raw = i % 2 ? { and: [raw, c(i)] } : { or: [raw, c(i)] };
    const out = compile(raw, 100);
    expect(!out.ok && out.error.message).toMatch(/^filter nesting depth 150 is too deep to evaluate: .*flattening .*as sent: depth 150/);
  });

  it("compiles 10,000 single-element levels into one condition", () => {
    let raw: unknown = c(7);
    for (let i = 0; i < 10_000; i++) raw = { or: [raw] };
    raw = { and: [raw] };
    const out = compile(raw);
    expect(out.ok && out.sql).toBe(`"age" = ?`);
  });
});
