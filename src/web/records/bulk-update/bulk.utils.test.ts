import { describe, expect, it } from "vitest";
import type { FilterValue } from "../../../shared/filter";
import type { FieldInfo } from "../../../shared/records";
import { narrowed } from "./bulk-apply";
import { changesFromSnapshot, readBulkValues } from "./bulk.utils";

const fields: FieldInfo[] = [
  { key: "age", type: "number", nullable: true, primaryKey: false },
  { key: "city", type: "text", nullable: false, primaryKey: false },
];

describe("readBulkValues", () => {
  it.each([
    [[{ field: "age", text: "40", isNull: false }], { ok: true, value: [{ key: "age", value: 40 }] }],
    [[{ field: "age", text: "", isNull: true }, { field: "city", text: "Oslo", isNull: false }], { ok: true, value: [{ key: "age", value: null }, { key: "city", value: "Oslo" }] }],
    [[{ field: "age", text: "forty", isNull: false }], { ok: false, message: /age needs a number/ }],
    [[{ field: "city", text: "", isNull: true }], { ok: false, message: /city cannot be NULL/ }],
    [[{ field: "age", text: "1", isNull: false }, { field: "age", text: "2", isNull: false }], { ok: false, message: /set twice/ }],
    [[], { ok: false, message: /at least one/ }],
    [[{ field: "age", text: " ", isNull: false }], { ok: false, message: /^Enter a value for age, or press NULL to clear it\.$/ }],
    [[{ field: "city", text: "", isNull: false }], { ok: true, value: [{ key: "city", value: "" }] }],
  ])("%j", (rows, expected) => {
    const r = readBulkValues(rows, fields);
    expect(r.ok).toBe(expected.ok);
    if (r.ok && "value" in expected) expect(r.value).toEqual(expected.value);
    if (!r.ok && "message" in expected) expect(r.error.message).toMatch(expected.message as RegExp);
  });
});

it("changesFromSnapshot skips cells that already hold the value", () => {
  const snap = [
    { id: "a", age: 40 },
    { id: "b", age: null },
  ];
  expect(changesFromSnapshot(snap, "id", [{ key: "age", value: 40 }])).toEqual([{ pk: "b", field: "age", before: null, after: 40 }]);
});

describe("narrowed (the confirmed set carried by the update)", () => {
  const eq = (key: string, value: FilterValue) => ({ key, operator: "equal", value });
  it("is the view's filter AND primary key in the set, with only equal conditions of its own", () => {
    const view = { and: [eq("department", "Sales")] };
    expect(narrowed(view, "id", ["a", "b"])).toEqual({ and: [eq("department", "Sales"), { or: [eq("id", "a"), eq("id", "b")] }] });
  });
  it("keeps an or-filter whole and drops an empty and", () => {
    const or = { or: [eq("city", "Oslo"), eq("city", "Rome")] };
    expect(narrowed(or, "id", [1])).toEqual({ and: [or, { or: [eq("id", 1)] }] });
    expect(narrowed({ and: [] }, "id", [1])).toEqual({ and: [{ or: [eq("id", 1)] }] });
  });
});
