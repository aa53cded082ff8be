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
});
