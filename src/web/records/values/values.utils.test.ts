import { describe, expect, it } from "vitest";
import type { FieldInfo, FieldType } from "../../../shared/records";
import { checkValue, formatValue, inferFields, parseInput, sameValue, thumbnailUrl } from "./values.utils";

const f = (type: FieldType, nullable = true): FieldInfo => ({ key: "x", type, nullable, primaryKey: false });

describe("parseInput", () => {
  it.each([
    ["number", "42", { ok: true, value: 42 }],
    ["number", " -3.5 ", { ok: true, value: -3.5 }],
    ["number", "1e3", { ok: false }],
    ["number", "99999999999999999999", { ok: false }],
    ["number", "-0", { ok: false }],
    ["datetime", "2024-02-30T10:00:00Z", { ok: false }],
    ["datetime", "2024-03-01t09:30:00z", { ok: true, value: "2024-03-01t09:30:00z" }],
    ["datetime", "2024-03-01T09:30:00.1234567890Z", { ok: false }],
    ["number", "", { ok: true, value: null }],
    ["number", "12abc", { ok: false }],
    ["number", "195,800", { ok: true, value: 195800 }],
    ["number", "-1,234.5", { ok: true, value: -1234.5 }],
    ["number", "1,23", { ok: false }],
    ["number", "12,3456", { ok: false }],
    ["number", "Infinity", { ok: false }],
    ["boolean", "true", { ok: true, value: true }],
    ["boolean", "No", { ok: true, value: false }],
    ["boolean", "maybe", { ok: false }],
    ["date", "2024-02-29", { ok: true, value: "2024-02-29" }],
    ["date", "2023-02-29", { ok: false }],
    ["date", "03/01/2024", { ok: false }],
    ["datetime", "2024-03-01T09:30:00Z", { ok: true, value: "2024-03-01T09:30:00Z" }],
    ["datetime", "2024-03-01 09:30", { ok: false }],
    ["json", '{"a":1}', { ok: true, value: { a: 1 } }],
    ["json", "{a:1}", { ok: false }],
    ["text", "", { ok: true, value: "" }],
    ["text", " spaced ", { ok: true, value: " spaced " }],
  ] as const)("%s %j", (type, text, expected) => {
    const r = parseInput(f(type), text);
    expect(r.ok).toBe(expected.ok);
    if (r.ok && "value" in expected) expect(r.value).toEqual(expected.value);
  });

  it("refuses an empty number when the field is not nullable, naming the field", () => {
    const r = parseInput({ key: "age", type: "number", nullable: false, primaryKey: false }, "");
    expect(!r.ok && r.error.message).toMatch(/age cannot be empty/);
  });
});

describe("checkValue", () => {
  it.each([
    ["number", "42", false],
    ["number", 42, true],
    ["text", 42, false],
    ["boolean", "true", false],
    ["date", "2024-01-01", true],
  ] as const)("%s %j → %s", (type, value, ok) => {
    expect(checkValue(f(type), value).ok).toBe(ok);
  });
});

describe("formatValue", () => {
  it.each([
    ["number", 1234567.5, "1,234,567.5"],
    ["date", "2024-03-01", "Mar 1, 2024"],
    ["boolean", false, "false"],
    ["json", { a: [1] }, '{"a":[1]}'],
    ["text", "", ""],
  ] as const)("%s %j → %s", (type, value, text) => {
    expect(formatValue(type, value)).toBe(text);
  });
});

describe("inferFields", () => {
  it("guesses types and ignores nulls", () => {
    const rows = [
      { id: "a", n: 1, d: "2024-01-01", t: "2024-01-01T00:00:00Z", b: true, j: { x: 1 }, s: "x" },
      { id: "b", n: null, d: null, t: null, b: null, j: null, s: "2024-01-01" },
    ];
    expect(inferFields(rows, "id").map((x) => [x.key, x.type, x.primaryKey])).toEqual([
      ["id", "text", true],
      ["n", "number", false],
      ["d", "date", false],
      ["t", "datetime", false],
      ["b", "boolean", false],
      ["j", "json", false],
      ["s", "text", false],
    ]);
  });
});

it("thumbnailUrl asks for the box times the pixel ratio, snapped up to the cached sizes, and encodes the key by segment", () => {
  expect(thumbnailUrl("public-assets", "img/a b.png", 40, 28, 2)).toBe("/api/v0/storage/public/public-assets/img/a%20b.png?w=128&h=64");
});

it("sameValue compares json structurally", () => {
  expect(sameValue({ a: 1 }, { a: 1 })).toBe(true);
  expect(sameValue(null, "")).toBe(false);
});
