import { describe, expect, it } from "vitest";
import type { FieldInfo } from "../../../shared/records";
import { csvStart, csvRows } from "../export/export-format.utils";
import { csvWithout, fileText, importUndo, isJsonFile, planImport, planSummary, readCsv, readJson } from "./import-plan.utils";

const fields: FieldInfo[] = [
  { key: "id", type: "text", nullable: false, primaryKey: true },
  { key: "age", type: "number", nullable: true, primaryKey: false },
  { key: "name", type: "text", nullable: true, primaryKey: false },
];

describe("import plan", () => {
  it("reads a CSV, names bad cells by line", () => {
    const r = readCsv("id,age,name\na,31,Ann\nb,old,Bob\n\nc,,\n", fields);
    if (!r.ok) throw new Error(r.message);
    expect(r.rows.map((x) => x.values)).toEqual([{ id: "a", age: 31, name: "Ann" }, { id: "b", name: "Bob" }, { id: "c", age: null, name: null }]);
    expect(r.errors.map((e) => e.error)).toEqual([expect.stringMatching(/^line 3: age needs a number/)]);
  });
  it("reads a file's cells as the service's import does: no thousands separators, booleans as true or false", () => {
    const withFlag: FieldInfo[] = [...fields, { key: "ok", type: "boolean", nullable: true, primaryKey: false }];
    const r = readCsv('id,age,ok\na,"98,500",true\nb,1_000,FALSE\nc,42,yes\n', withFlag);
    if (!r.ok) throw new Error(r.message);
    expect(r.errors.map((e) => e.error)).toEqual([
      'line 2: age takes a number written out, such as 42 or -4.25, in a file: "98,500" has a thousands separator (write 98500).',
      'line 3: age takes a number written out, such as 42 or -4.25, in a file: "1_000" has a thousands separator (write 1000).',
      'line 4: ok takes true or false in a file, not "yes".',
    ]);
    expect(r.rows[1].values.ok).toBe(false);
  });
  it("refuses unknown columns and a header without the primary key", () => {
    // With the Field it most likely meant, and the table's Fields (review 39b #7).
    expect(readCsv("id,agee\n", fields)).toMatchObject({ ok: false, message: expect.stringMatching(/^line 1: "agee" \(did you mean "age"\?\) is not a Field of this table\. Its Fields: id, .*age/) });
    expect(readCsv("age\n1\n", fields)).toMatchObject({ ok: false, message: expect.stringContaining("primary key") });
  });
  it("says a file separated by semicolons or tabs is not read as commas", () => {
    expect(readCsv("id;age;name\na;31;Ann\n", fields)).toMatchObject({ ok: false, message: expect.stringMatching(/^line 1: the values seem to be separated by semicolons \(;\); an import reads commas/) });
    expect(readCsv("id\tage\n", fields)).toMatchObject({ ok: false, message: expect.stringContaining("separated by tabs") });
    // A header that is one unknown name without either is still named as such.
    expect(readCsv("idd\n", fields)).toMatchObject({ ok: false, message: expect.stringMatching(/^line 1: "idd" \(did you mean "id"\?\) is not a Field of this table\. Its Fields: /) });
  });
  it("reads a file as UTF-8, and names the line of a file that is not", () => {
    const utf8 = new TextEncoder().encode("id,name\na,Müller\n");
    expect(fileText(utf8.buffer as ArrayBuffer)).toEqual({ ok: true, text: "id,name\na,Müller\n" });
    // "Müller García" saved as Latin-1, on line 3.
    const latin1 = Uint8Array.from([...new TextEncoder().encode("id,name\nb,Bob\nc,M"), 0xfc, ...new TextEncoder().encode("ller Garc"), 0xed, 0x61, 10]);
    expect(fileText(latin1.buffer as ArrayBuffer)).toMatchObject({ ok: false, message: expect.stringMatching(/^line 3: the file is not UTF-8 text/) });
  });
  it("plans updates of changed cells and new Records", () => {
    const r = readCsv("id,age,name\na,31,Ann\nb,40,Bob\nn,5,\n", fields);
    if (!r.ok) throw new Error(r.message);
    const p = planImport(r.rows, [{ id: "a", age: 30, name: "Ann" }, { id: "b", age: 40, name: "Bob" }], fields, "id");
    expect(p.updated).toBe(1);
    expect(p.unchanged).toBe(1);
    expect([...p.newPks]).toEqual(['"n"']);
    expect(p.changes.map((c) => [c.pk, c.field.key, c.before, c.after])).toEqual([
      ["a", "age", 30, 31],
      ["n", "id", undefined, "n"],
      ["n", "age", undefined, 5],
    ]);
  });
  it("summarizes only the parts that are not zero", () => {
    expect(planSummary({ newPks: new Set(["a"]), updated: 2, unchanged: 0 })).toBe("1 new Record, 2 Records to update");
    expect(planSummary({ newPks: new Set(), updated: 0, unchanged: 3 })).toBe("3 Records unchanged");
    expect(planSummary({ newPks: new Set(), updated: 0, unchanged: 0 })).toBe("nothing to change");
  });
});

describe("import checks, skipping and undo (issue 24)", () => {
  it("flags an empty primary key and a repeated one before anything is sent", () => {
    const r = readCsv("id,age\na,1\n,2\na,3\n", fields);
    if (!r.ok) throw new Error(r.message);
    // Both lines of a repeated key (review 46b #10: the first was imported, though which was meant
    // cannot be told).
    expect(r.errors.map((e) => e.error)).toEqual([
      "line 3: the primary key id is empty; every row needs one.",
      "line 2: id a appears twice in the file (also on line 4); keep one of them.",
      "line 4: id a appears twice in the file (also on line 2); keep one of them.",
    ]);
    expect(r.rows.map((x) => !!x.bad)).toEqual([true, true, true]);
  });
  it("writes the file again without the bad rows, quoting what needs it", () => {
    const r = readCsv('id,age,name\na,1,"Smith, Ann"\nb,old,Bob\nc,,"say ""hi"""\n', fields);
    if (!r.ok) throw new Error(r.message);
    expect(csvWithout(r.keys, r.rows)).toBe('id,age,name\r\na,1,"Smith, Ann"\r\nc,,"say ""hi"""\r\n');
  });
  it("lists every row of the wrong width, by line and in words, and leaves them out of the rest", () => {
    const r = readCsv("id,age,name\na,1,Ann\nb\nc,2,Cy,extra\nd,3,Di\n", fields);
    if (!r.ok) throw new Error(r.message);
    expect(r.errors.map((e) => e.error)).toEqual([
      "line 3: 1 cell where the header has 3 (a missing or extra comma, or a value holding a comma that needs quotes).",
      "line 4: 4 cells where the header has 3 (a missing or extra comma, or a value holding a comma that needs quotes).",
    ]);
    for (const e of r.errors) expect(e.error).not.toMatch(/record/i);
    expect(r.rows.map((x) => [x.line, !!x.bad, !!x.misshapen])).toEqual([[2, false, false], [3, true, true], [4, true, true], [5, false, false]]);
    expect(csvWithout(r.keys, r.rows)).toBe("id,age,name\r\na,1,Ann\r\nd,3,Di\r\n");
  });
  it("a quote in the middle of a value, and a quoted value with more after it: named by line, in words", () => {
    expect(readCsv('id,age,name\na,31,Ann "Bo" Lee\n', fields)).toMatchObject({ ok: false, message: expect.stringContaining('line 2: a quote (") in the middle of a value') });
    expect(readCsv('id,age,name\na,31,"Bo" Lee\n', fields)).toMatchObject({ ok: false, message: expect.stringContaining("line 2: a quoted value is followed by more text") });
  });
  it("undo: the changed cells with their before-images, and the added Records", () => {
    const r = readCsv("id,age,name\na,31,Ann\nn,5,\n", fields);
    if (!r.ok) throw new Error(r.message);
    const p = planImport(r.rows, [{ id: "a", age: 30, name: "Ann" }], fields, "id");
    expect(importUndo(p, r.rows)).toEqual({
      changes: [{ pk: "a", field: "age", before: 30, after: 31 }],
      inserted: [{ id: "n", age: 5, name: null }],
    });
  });
});

describe("a JSON file, as Export → JSON writes it (review 54b #1)", () => {
  const withJson: FieldInfo[] = [...fields, { key: "ok", type: "boolean", nullable: true, primaryKey: false }, { key: "meta", type: "json", nullable: true, primaryKey: false }];
  const items = [
    { id: "a", age: 31, name: "Ann, \"A\"\nline two", ok: true, meta: { tags: ["x"] } },
    { id: "b", age: null, name: null, ok: false, meta: null },
  ];
  it("reads as the CSV the export writes of the same Records: the same rows, and that CSV to send", () => {
    const json = readJson(JSON.stringify(items), withJson);
    const keys = ["id", "age", "name", "ok", "meta"];
    const csv = readCsv(csvStart(keys, false) + csvRows(items, keys), withJson);
    if (!json.ok || !csv.ok) throw new Error("not read");
    expect(json.rows.map((r) => r.values)).toEqual(csv.rows.map((r) => r.values));
    expect(json.rows[0].values).toEqual({ id: "a", age: 31, name: 'Ann, "A"\nline two', ok: true, meta: { tags: ["x"] } });
    const sent = readCsv(json.csv as string, withJson);
    expect(sent.ok && sent.rows.map((r) => r.values)).toEqual(csv.rows.map((r) => r.values));
  });
  it("names its problems by the array's item, not by line (review 55b #5)", () => {
    const r = readJson(JSON.stringify([{ id: "a", age: "old" }, { id: "a", age: 2 }, { id: "", age: 3 }]), fields);
    if (!r.ok) throw new Error(r.message);
    expect(r.errors.map((e) => e.error)).toEqual([
      expect.stringMatching(/^item 1: age needs a number/),
      "item 1: id a appears twice in the file (also as item 2); keep one of them.",
      "item 2: id a appears twice in the file (also as item 1); keep one of them.",
      "item 3: the primary key id is empty; every row needs one.",
    ]);
    expect(readJson(JSON.stringify([{ id: "a", agee: 1 }]), fields)).toMatchObject({ ok: false, message: expect.stringMatching(/^the file's Fields: "agee" \(did you mean "age"\?\) is not a Field/) });
  });
  it("refuses what is not an array of Records alike, in words", () => {
    expect(readJson("{\"id\":\"a\"}", fields)).toMatchObject({ ok: false, message: expect.stringContaining("holds no array") });
    expect(readJson("[]", fields)).toMatchObject({ ok: false, message: expect.stringContaining("empty array") });
    expect(readJson('[{"id":"a"},3]', fields)).toMatchObject({ ok: false, message: expect.stringMatching(/^Item 2 of the array is not an object/) });
    expect(readJson('[{"id":"a","age":1},{"id":"b"}]', fields)).toMatchObject({ ok: false, message: expect.stringMatching(/^Item 2 of the array has no "age", which other items of the file have/) });
    expect(readJson('[{"id":', fields)).toMatchObject({ ok: false, message: expect.stringMatching(/^The file is not valid JSON/) });
  });
  it("is told from a CSV by its name or type, else by its first character", () => {
    expect(isJsonFile("employees.json", "", "id,age")).toBe(true);
    expect(isJsonFile("x", "application/json", "")).toBe(true);
    expect(isJsonFile("employees.csv", "", "[")).toBe(false);
    expect(isJsonFile("dropped", "", "\uFEFF [\n{")).toBe(true);
    expect(isJsonFile("dropped", "", "id,age")).toBe(false);
  });
});
