import { describe, expect, it } from "vitest";
import type { FieldInfo } from "../../../shared/records";
import { allColumns, columnWidth, moveColumn, toggleColumn, unknownColumns, visibleColumns } from "./columns.utils";

const base: FieldInfo[] = [
  { key: "id", type: "text", nullable: false, primaryKey: true },
  { key: "age", type: "number", nullable: true, primaryKey: false },
  { key: "dept", type: "text", nullable: true, primaryKey: false },
];
const joined: FieldInfo[] = [{ key: "budget", type: "number", nullable: true, primaryKey: false }];

describe("columns", () => {
  const all = allColumns(base, { table: "departments", fields: joined });
  it("puts joined fields after base ones, read-only, keyed table.field", () => {
    expect(all.map((c) => [c.key, c.readOnly, c.joined])).toEqual([
      ["id", true, false],
      ["age", false, false],
      ["dept", false, false],
      ["departments.budget", true, true],
    ]);
  });
  it.each([
    [undefined, "age", ["id", "dept", "departments.budget"]],
    [["id"], "age", ["id", "age"]],
  ])("toggle %j %s", (cols, key, expected) => {
    expect(toggleColumn(all, cols, key)).toEqual(expected);
  });
  it.each([
    [undefined, "age", -1, ["age", "id", "dept", "departments.budget"]],
    [["id", "age"], "age", 1, ["id", "age"]],
  ] as const)("move %j %s %i", (cols, key, d, expected) => {
    expect(moveColumn(all, cols as string[] | undefined, key, d)).toEqual(expected);
  });
  it("visible and unknown", () => {
    expect(visibleColumns(all, ["dept", "nope", "id"]).map((c) => c.key)).toEqual(["dept", "id"]);
    expect(unknownColumns(all, ["dept", "nope"])).toEqual(["nope"]);
  });
});

describe("columnWidth", () => {
  it.each([
    ["age", "number", false, 122],
    ["amount", "number", false, 144],
    ["employee_id", "text", true, 156],
    ["annual_salary", "number", false, 197],
    ["departments.department", "text", false, 251],
    ["a_very_long_field_name_that_goes_on_and_on_and_on", "text", false, 320],
  ] as const)("%s (%s) → %i", (key, type, pk, width) => {
    expect(columnWidth(key, type, pk)).toBe(width);
  });
});
