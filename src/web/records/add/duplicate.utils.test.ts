import { describe, expect, it } from "vitest";
import type { FieldInfo } from "../../../shared/records";
import { buildRecord } from "./new-record.utils";
import { duplicateTexts } from "./duplicate.utils";

const fields: FieldInfo[] = [
  { key: "id", type: "text", nullable: false, primaryKey: true },
  { key: "age", type: "number", nullable: true, primaryKey: false },
  { key: "tags", type: "json", nullable: true, primaryKey: false },
  { key: "city", type: "text", nullable: true, primaryKey: false },
  { key: "d.name", type: "text", nullable: true, primaryKey: false },
];

describe("duplicateTexts", () => {
  it("prefills every own Field but the primary key; nulls stay empty; joined Fields are left out", () => {
    const texts = duplicateTexts(fields, { id: "a", age: 42.5, tags: { x: [1] }, city: null, "d.name": "Sales" });
    expect(texts).toEqual({ age: "42.5", tags: '{"x":[1]}' });
    // Typing a new key is all it takes to make the copy.
    expect(buildRecord(fields, { ...texts, id: "b" })).toEqual({ ok: true, record: { id: "b", age: 42.5, tags: { x: [1] } } });
  });
});
