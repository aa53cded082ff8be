import { describe, expect, it } from "vitest";
import type { FieldInfo } from "../../../shared/records";
import { addCondition, valueCondition } from "./filter-by-value.utils";

const dept: FieldInfo = { key: "department", type: "text", nullable: true, primaryKey: false };
const c = { key: "department", operator: "equal", value: "Sales" };

describe("filter by value", () => {
  it("adds to the current filter", () => {
    expect(addCondition(undefined, c)).toEqual({ and: [c] });
    const fixed = { key: "age", operator: "greaterThan", value: 30, isFixed: true };
    expect(addCondition({ and: [fixed] }, c)).toEqual({ and: [fixed, c] });
    const or = { or: [fixed, { key: "age", operator: "equal", value: 1 }] };
    expect(addCondition(or, c)).toEqual({ and: [or, c] });
  });
  it("uses the upstream's operators only", () => {
    expect(valueCondition(dept, "Sales", false, ["equal"])).toEqual(c);
    expect(valueCondition(dept, "Sales", true, ["equal"])).toBeUndefined();
    expect(valueCondition(dept, null, true, ["equal", "notEqual"])).toEqual({ key: "department", operator: "notEqual", value: null });
    expect(valueCondition({ ...dept, type: "json" }, { a: 1 }, false, ["equal"])).toBeUndefined();
  });
});
