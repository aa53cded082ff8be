import { describe, expect, it } from "vitest";
import type { FieldInfo } from "../../../shared/records";
import { buildRecord, formFields } from "./new-record.utils";

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
});
