import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FieldInfo } from "../../../shared/records";
import { clipboardText, parseTsv, toTsv } from "./tsv.utils";

const f = (type: FieldInfo["type"]): FieldInfo => ({ key: "x", type, nullable: true, primaryKey: false });

describe("tsv", () => {
  it("writes numbers unformatted, NULL as empty, json as JSON", () => {
    expect(clipboardText(f("number"), 195800)).toBe("195800");
    expect(clipboardText(f("text"), null)).toBe("");
    expect(clipboardText(f("json"), { a: 1 })).toBe('{"a":1}');
    expect(clipboardText(f("date"), "2024-03-01")).toBe("2024-03-01");
  });
  it("quotes cells with tabs, line breaks or a leading quote", () => {
    expect(toTsv([["a\tb", 'say "hi"', '"q'], ["x\ny", ""]])).toBe('"a\tb"\tsay "hi"\t"""q"\n"x\ny"\t');
  });
  it("reads what spreadsheets write (trailing newline, CRLF)", () => {
    expect(parseTsv("a\tb\r\nc\td\r\n")).toEqual([["a", "b"], ["c", "d"]]);
    expect(parseTsv("1\n")).toEqual([["1"]]);
    expect(parseTsv("a\t\tb")).toEqual([["a", "", "b"]]);
    expect(parseTsv('say "hi"\tx')).toEqual([['say "hi"', "x"]]);
  });
  it("round-trips any grid of cells", () => {
    const cellArb = fc.string({ unit: fc.constantFrom("a", "b", " ", "\t", "\n", '"', "é", "1") });
    fc.assert(
      fc.property(fc.array(fc.array(cellArb, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 4 }), (grid) => {
        // A row of one empty cell cannot be told from no row: the widths here are >= 2.
        expect(parseTsv(toTsv(grid))).toEqual(grid);
      }),
    );
  });
});
