import { describe, expect, it } from "vitest";
import { filterUses, patchRows } from "./apply-change.utils";

describe("filterUses", () => {
  it("finds a Field anywhere in a nested filter", () => {
    const f = { and: [{ key: "a", operator: "equal", value: 1 }, { or: [{ key: "b", operator: "equal", value: 2 }] }] };
    expect(filterUses(f, new Set(["b"]))).toBe(true);
    expect(filterUses(f, new Set(["c"]))).toBe(false);
    expect(filterUses(undefined, new Set(["a"]))).toBe(false);
  });
});

describe("patchRows", () => {
  it("patches only the changed Records and only Fields the rows have", () => {
    const rows = [
      { id: "E1", city: "A", n: 1 },
      { id: "E2", city: "B", n: 2 },
    ];
    const out = patchRows(rows, "id", new Map([["E2", { city: "Z", hidden: 5 }]]));
    expect(out.rows).toEqual([rows[0], { id: "E2", city: "Z", n: 2 }]);
    expect(out.rows[0]).toBe(rows[0]);
    expect(out.hit).toHaveLength(1);
    expect(patchRows(rows, "id", new Map([["E9", { city: "Q" }]])).rows).toBe(rows);
  });
  it("matches numeric keys by their text", () => {
    expect(patchRows([{ id: 7, v: 1 }], "id", new Map([["7", { v: 2 }]])).rows).toEqual([{ id: 7, v: 2 }]);
  });
});
