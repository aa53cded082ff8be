import { describe, expect, it } from "vitest";
import type { FieldType } from "../../../shared/records";
import { decode, encodeWrite, isValidDate, jsonDepth, normalizeDatetime, parseNumeric } from "./values";

const field = (type: FieldType, nullable = true) => ({ key: "f", type, nullable });

describe("encodeWrite takes exactly the Field's type", () => {
  const accepted: [FieldType, unknown, unknown][] = [
    ["text", "a", "a"],
    ["text", "", ""],
    ["number", 4.5, 4.5],
    ["boolean", true, true],
    ["boolean", false, false],
    ["date", "2024-02-29", "2024-02-29"],
    ["datetime", "2024-05-01T12:00:00+02:00", "2024-05-01T10:00:00.000Z"],
    ["datetime", "2024-05-01T10:00Z", "2024-05-01T10:00:00.000Z"],
    ["json", { a: [1, { b: null }] }, '{"a":[1,{"b":null}]}'],
    ["json", "text", '"text"'],
    ["image", "catalog/lamp.png", "catalog/lamp.png"],
    ["attachment", "docs/manual.pdf", "docs/manual.pdf"],
    ["number", null, null],
  ];
  it.each(accepted)("%s %j", (type, value, stored) => {
    expect(encodeWrite(field(type), value, "values[0]")).toEqual({ ok: true, value: stored });
  });

  const refused: [FieldType, unknown, RegExp][] = [
    ["number", "42", /Field "f" is number and takes a JSON number, not "42"/],
    ["text", 1, /takes a string, not 1/],
    ["boolean", "true", /takes true or false/],
    ["boolean", 1, /takes true or false/],
    ["date", "2023-02-29", /takes a date string/],
    ["date", "2024-2-1", /takes a date string/],
    ["datetime", "2024-05-01T10:00:00", /with a zone/],
    ["datetime", "yesterday", /with a zone/],
    ["image", { key: "x" }, /not an object/],
    ["text", [1], /not an array/],
    ["json", JSON.parse(`${"[".repeat(65)}${"]".repeat(65)}`), /nested more than 64 levels/],
  ];
  it.each(refused)("refuses %s %j", (type, value, message) => {
    const r = encodeWrite(field(type), value, "values[0]");
    expect(!r.ok && r.error.message).toMatch(message);
  });

  it("refuses null where not nullable, and a missing value", () => {
    expect(encodeWrite(field("text", false), null, "v")).toMatchObject({ ok: false, error: { message: 'v: Field "f" cannot be null.' } });
    expect(encodeWrite(field("text"), undefined, "v")).toMatchObject({ ok: false, error: { message: expect.stringMatching(/"value" is missing/) } });
  });
});

describe("helpers", () => {
  it("parses numeric strings only", () => {
    expect([" 42 ", "-1.5", ".5", "1e3", "4.", "abc", "", "1,000", "0x10", "Infinity"].map((s) => parseNumeric(s))).toEqual([
      42, -1.5, 0.5, 1000, 4, undefined, undefined, undefined, undefined, undefined,
    ]);
  });
  it("validates calendar dates", () => {
    expect(["2024-02-29", "2023-02-29", "2024-13-01", "2024-04-31", "24-01-01"].map(isValidDate)).toEqual([true, false, false, false, false]);
    // Years 1–99 are real years (Date.UTC would read them as 1900–1999); year 0 is none (0001–9999).
    expect(["0001-01-01", "0099-12-31", "0000-02-29", "0100-02-29"].map(isValidDate)).toEqual([true, true, false, false]);
  });
  it("normalizes datetimes to UTC", () => {
    expect(normalizeDatetime("2024-12-31T23:30:00-01:00")).toBe("2025-01-01T00:30:00.000Z");
    expect(normalizeDatetime("2024-02-30T00:00:00Z")).toBeUndefined();
    expect(normalizeDatetime("0050-06-01T00:00:00Z")).toBe("0050-06-01T00:00:00.000Z");
    // Out of the four-digit years once in UTC: their ISO forms would not sort as text.
    expect(normalizeDatetime("9999-12-31T23:00:00-05:00")).toBeUndefined();
    expect(normalizeDatetime("0000-01-01T00:30:00+01:00")).toBeUndefined();
  });
  it("measures json depth without recursion", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonDepth(deep)).toBe(65);
    expect(jsonDepth({ a: [1, { b: 2 }] })).toBe(3);
    expect(jsonDepth("x")).toBe(0);
  });
  it("decodes booleans and json", () => {
    expect([decode("boolean", 1), decode("boolean", 0), decode("json", '{"a":1}'), decode("number", null)]).toEqual([true, false, { a: 1 }, null]);
  });
});
