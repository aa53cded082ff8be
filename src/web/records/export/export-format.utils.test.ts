import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvHeader, csvRows, csvStart, jsonClose, jsonOpen, jsonRows } from "./export-format.utils";

const rows = [
  { id: "a", n: 1234.5, s: 'say "hi", ok', j: { x: [1] }, z: null },
  { id: "b", n: 0, s: "two\nlines", j: null, z: true },
];
const keys = ["id", "n", "s", "j", "z"];

describe("export formats", () => {
  it("CSV reads back cell for cell", () => {
    const text = csvHeader(keys) + csvRows(rows, keys);
    expect(parse(text)).toEqual([keys, ["a", "1234.5", 'say "hi", ok', '{"x":[1]}', ""], ["b", "0", "two\nlines", "", "true"]]);
  });
  it("JSON written in pages is one array", () => {
    const text = jsonOpen + jsonRows(rows.slice(0, 1), keys, true) + jsonRows(rows.slice(1), keys, false) + jsonClose;
    expect(JSON.parse(text)).toEqual(rows);
    expect(JSON.parse(jsonOpen + jsonClose)).toEqual([]);
  });
});

describe("csvStart", () => {
  it("writes the UTF-8 byte-order mark before the header when asked, and only then", () => {
    const withBom = new TextEncoder().encode(csvStart(["name"], true));
    expect([...withBom.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csvStart(["name"], false)).toBe("name\r\n");
  });
});

describe("formulas", () => {
  const risky = [{ id: "=SUM(A1:A2)", n: -5, s: "+1 555", t: "@cmd", u: "\tx", v: "-x", ok: "a=b", j: { "=": 1 } }];
  const cols = Object.keys(risky[0]);
  it("guarded: a text a spreadsheet would run is written after a '; numbers, JSON and other texts as they are", () => {
    expect(parse(csvRows(risky, cols, true))).toEqual([["'=SUM(A1:A2)", "-5", "'+1 555", "'@cmd", "'\tx", "'-x", "a=b", '{"=":1}']]);
    expect(csvHeader(["=name"], true)).toBe("'=name\r\n");
  });
  it("unguarded (the export's box unticked): exactly as stored", () => {
    expect(parse(csvRows(risky, cols))).toEqual([["=SUM(A1:A2)", "-5", "+1 555", "@cmd", "\tx", "-x", "a=b", '{"=":1}']]);
  });
});
