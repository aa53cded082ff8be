import { describe, expect, it } from "vitest";
import { parseRange } from "./range";

describe("parseRange (one byte range, issue 3 item 3)", () => {
  it.each([
    [undefined, 100, { kind: "full" }],
    ["bytes=0-0", 100, { kind: "partial", start: 0, end: 0 }],
    ["bytes=7-", 100, { kind: "partial", start: 7, end: 99 }],
    ["bytes=-5", 100, { kind: "partial", start: 95, end: 99 }],
    ["bytes=-500", 100, { kind: "partial", start: 0, end: 99 }],
    ["bytes=10-20", 100, { kind: "partial", start: 10, end: 20 }],
    ["bytes=90-1000", 100, { kind: "partial", start: 90, end: 99 }],
    ["bytes=99-99", 100, { kind: "partial", start: 99, end: 99 }],
    [" bytes=1-2 ", 100, { kind: "partial", start: 1, end: 2 }],
    ["bytes=100-", 100, { kind: "unsatisfiable" }],
    ["bytes=100-200", 100, { kind: "unsatisfiable" }],
    ["bytes=5-4", 100, { kind: "unsatisfiable" }],
    ["bytes=-0", 100, { kind: "unsatisfiable" }],
    ["bytes=0-0", 0, { kind: "unsatisfiable" }],
    ["bytes=-5", 0, { kind: "unsatisfiable" }],
    ["bytes=-", 100, { kind: "unsatisfiable" }],
    ["bytes=a-b", 100, { kind: "unsatisfiable" }],
    ["items=0-1", 100, { kind: "full" }],
    ["Bytes=0-1", 100, { kind: "partial", start: 0, end: 1 }],
    ["bytes=-99999999999999999999", 100, { kind: "partial", start: 0, end: 99 }],
    ["bytes=-1000", 100, { kind: "partial", start: 0, end: 99 }],
    ["bytes=1.5-2", 100, { kind: "unsatisfiable" }],
    ["bytes=0-1,2-3", 100, { kind: "full" }],
    ["bytes=0-99,0-99,0-99,0-99", 100, { kind: "full" }],
    [`bytes=${"0-1,".repeat(1000)}0-1`, 100, { kind: "full" }],
    ["bytes=99999999999999999999-", 100, { kind: "unsatisfiable" }],
  ])("%j of %d bytes", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
