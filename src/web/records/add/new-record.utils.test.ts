import { describe, expect, it } from "vitest";
import type { FieldInfo } from "../../../shared/records";
import { buildRecord, formFields, spreadPaste } from "./new-record.utils";

const fields: FieldInfo[] = [
  { key: "name", type: "text", nullable: true, primaryKey: false },
  { key: "id", type: "text", nullable: false, primaryKey: true },
  { key: "age", type: "number", nullable: true, primaryKey: false },
  { key: "team", type: "text", nullable: false, primaryKey: false },
  { key: "dept.head", type: "text", nullable: true, primaryKey: false },
];

describe("new Record form", () => {
  it("puts the primary key first and leaves joined Fields out", () => {
    expect(formFields(fields).map((f) => f.key)).toEqual(["id", "name", "age", "team"]);
  });

  it("builds the Record, leaving empty nullable Fields out", () => {
    expect(buildRecord(fields, { id: "a1", age: "42", team: "x", name: "" })).toEqual({ ok: true, record: { id: "a1", age: 42, team: "x" } });
  });

  it("names every problem: required Fields empty, values of the wrong type, numbers that would be rounded", () => {
    const r = buildRecord(fields, { age: "99999999999999999999" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.problems).sort()).toEqual(["age", "id", "team"]);
    expect(r.problems.age).toMatch(/beyond/);
  });

  it("refuses a key with a blank before or after it, which would look like another Record (review 51b #1)", () => {
    for (const id of [" E00002", "E00002 ", "E00002\t"]) {
      const r = buildRecord(fields, { id, team: "x" });
      expect(r.ok, JSON.stringify(id)).toBe(false);
      if (!r.ok) expect(r.problems.id).toMatch(/^id is the primary key and starts or ends with a blank .*"E00002".*Remove the blank\.$/);
    }
    // Other Fields keep their blanks: they are what was typed.
    expect(buildRecord(fields, { id: "E00002", team: " x " })).toEqual({ ok: true, record: { id: "E00002", team: " x " } });
  });

  it("refuses a key holding a tab or line break (review 52b #1)", () => {
    for (const id of ["E09001\tPaste One", "E1\nE2"]) {
      const r = buildRecord(fields, { id, team: "x" });
      expect(r.ok, JSON.stringify(id)).toBe(false);
      if (!r.ok) expect(r.problems.id).toMatch(/holds a tab, line break or other control character/);
    }
  });

  it("spreads a pasted block's first line over the row from the cell pasted into, and counts the other lines", () => {
    const shown = ["id", "name", "age"];
    expect(spreadPaste([["E09001", "Paste One"], ["E09002", "Paste Two"]], shown, "id")).toEqual({ texts: { id: "E09001", name: "Paste One" }, more: 1 });
    expect(spreadPaste([["Ann", "41", "past the last column"]], shown, "name")).toEqual({ texts: { name: "Ann", age: "41" }, more: 0 });
    // One cell is plain text: typed as is.
    expect(spreadPaste([["just text"]], shown, "name")).toBeUndefined();
    expect(spreadPaste([["a", "b"]], shown, "hidden")).toBeUndefined();
  });
});
