import { describe, expect, it } from "vitest";
import { parseResize, targetSize } from "./resize-params";

describe("parseResize (w and h, query or header)", () => {
  it.each([
    [{}, {}, undefined],
    [{ w: "100" }, {}, { w: 100, h: 0 }],
    [{ h: "1" }, {}, { w: 0, h: 1 }],
    [{ w: "4096", h: "4096" }, {}, { w: 4096, h: 4096 }],
    [{}, { w: "64" }, { w: 64, h: 0 }],
    [{}, { w: "64", h: "32" }, { w: 64, h: 32 }],
    [{ w: "10" }, { w: "64", h: "32" }, { w: 10, h: 32 }],
  ])("query %j headers %j", (query, headers, expected) => {
    expect(parseResize(query, headers)).toEqual({ ok: true, value: expected });
  });

  it.each([
    [{ w: "0" }, {}, /out of range/],
    [{ w: "4097" }, {}, /out of range/],
    [{ h: "99999" }, {}, /out of range/],
    [{ w: "-1" }, {}, /whole number/],
    [{ w: "1.5" }, {}, /whole number/],
    [{ w: "abc" }, {}, /whole number/],
    [{ w: "" }, {}, /whole number/],
    [{ w: " 10" }, {}, /whole number/],
    [{ w: "+10" }, {}, /whole number/],
    [{ w: ["1", "2"] }, {}, /one whole number/],
    [{}, { h: "big" }, /whole number/],
  ])("refuses query %j headers %j", (query, headers, message) => {
    const r = parseResize(query, headers);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(message);
  });
});

describe("targetSize (fit inside, never enlarged, aspect kept to the pixel)", () => {
  it.each([
    [200, 100, 1, { w: 0, h: 10 }, 20, 10],
    [200, 100, 1, { w: 50, h: 0 }, 50, 25],
    [200, 100, 1, { w: 50, h: 50 }, 50, 25],
    [200, 100, 1, { w: 4096, h: 10 }, 20, 10],
    [200, 100, 1, { w: 300, h: 300 }, 200, 100],
    [200, 100, 1, { w: 33, h: 0 }, 33, 17],
    [1000, 1, 1, { w: 10, h: 0 }, 10, 1],
    [200, 100, 6, { w: 50, h: 0 }, 50, 100],
    [200, 100, 8, { w: 0, h: 100 }, 50, 100],
  ])("%i×%i orientation %i in %j → %i×%i", (w, h, o, box, ew, eh) => {
    expect(targetSize(w, h, o, box)).toEqual({ width: ew, height: eh });
  });
});
