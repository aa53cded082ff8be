import { describe, expect, it } from "vitest";
import type { FieldInfo, RecordRow } from "../../../shared/records";
import { allColumns } from "../grid/columns.utils";
import { planPaste, planUpdates } from "./paste.utils";

const fields: FieldInfo[] = [
  { key: "id", type: "text", nullable: false, primaryKey: true },
  { key: "name", type: "text", nullable: true, primaryKey: false },
  { key: "age", type: "number", nullable: true, primaryKey: false },
  { key: "meta", type: "json", nullable: true, primaryKey: false },
];
const columns = allColumns(fields);
const rows: RecordRow[] = [
  { id: "a", name: "Ann", age: 30, meta: { x: 1 } },
  { id: "b", name: "Bob", age: 40, meta: null },
];

describe("planPaste", () => {
  it("lists changed cells, skips equal ones, type-checks each", () => {
    const r = planPaste([["Ann", "31"], ["Bo", "forty"]], { row: 0, col: 1 }, rows, columns, "id");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan.unchanged).toBe(1);
    expect(r.plan.invalid).toBe(1);
    expect(r.plan.changes.map((c) => [c.pk, c.field.key, c.before, c.after, !!c.error])).toEqual([
      ["a", "age", 30, 31, false],
      ["b", "name", "Bob", "Bo", false],
      ["b", "age", 40, undefined, true],
    ]);
  });
  it("refuses past the end of the page, past the last column, and onto read-only columns", () => {
    expect(planPaste([["x"], ["y"]], { row: 1, col: 1 }, rows, columns, "id")).toMatchObject({ ok: false, message: expect.stringContaining("2 rows but only 1 row is left on this page") });
    expect(planPaste([["x"], ["y"], ["z"]], { row: 0, col: 1 }, rows, columns, "id")).toMatchObject({ ok: false, message: expect.stringContaining("only 2 rows are left") });
    expect(planPaste([["x", "1", "{}", "z"]], { row: 0, col: 1 }, rows, columns, "id")).toMatchObject({ ok: false, message: expect.stringContaining("4 columns but only 3 columns are left") });
    expect(planPaste([["x"]], { row: 0, col: 0 }, rows, columns, "id")).toMatchObject({ ok: false, message: expect.stringContaining("read-only column id") });
  });
  it("reads an empty cell as NULL where allowed", () => {
    const r = planPaste([[""]], { row: 0, col: 1 }, rows, columns, "id");
    expect(r.ok && r.plan.changes[0].after).toBe(null);
  });
});

describe("planUpdates", () => {
  it("one update per Record, guarded by primary key and old values; json values are read-checked", () => {
    const r = planPaste([["Ann2", "31", '{"y":2}'], ["Bob", "41", "[1]"]], { row: 0, col: 1 }, rows, columns, "id");
    if (!r.ok) throw new Error(r.message);
    const ups = planUpdates(r.plan.changes, "id");
    expect(ups).toHaveLength(2);
    expect(ups[0].body).toEqual({
      values: [
        { key: "name", value: "Ann2" },
        { key: "age", value: 31 },
        { key: "meta", value: { y: 2 } },
      ],
      filter: { and: [{ key: "id", operator: "equal", value: "a" }, { key: "name", operator: "equal", value: "Ann" }, { key: "age", operator: "equal", value: 30 }] },
    });
    expect(ups[0].readCheck.map((c) => c.field.key)).toEqual(["meta"]);
    expect(ups[1].body.filter).toEqual({ and: [{ key: "id", operator: "equal", value: "b" }, { key: "age", operator: "equal", value: 40 }, { key: "meta", operator: "equal", value: null }] });
  });
});
