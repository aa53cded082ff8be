import { describe, expect, it } from "vitest";
import type { AppliedChange } from "../audit/auditor";
import { changeEventOf } from "./change-event";

const ada = { email: "ada@example.com", name: "Ada" };
const at = new Date("2026-11-25T10:00:00Z");
const applied = (p: Partial<AppliedChange>): AppliedChange => ({ kind: "update", resource: "table:demo/employees", keys: [], detail: {}, out: {}, ...p });

describe("changeEventOf", () => {
  it("an update lists each changed Record with its new values, the Fields and who", () => {
    const e = changeEventOf(applied({ detail: { values: [{ key: "city", value: "Oslo" }] }, out: { count: 2, changes: [{ key: "E1", before: { city: "A" }, after: { city: "Oslo" } }] } }), ada, "tab1", at);
    expect(e).toEqual({
      at: "2026-11-25T10:00:00.000Z",
      resource: "table:demo/employees",
      table: "demo/employees",
      actor: ada,
      origin: "baseboard",
      tab: "tab1",
      kind: "update",
      fields: ["city"],
      count: 2,
      records: [{ key: "E1", values: { city: "Oslo" } }],
    });
  });
  it("no event for an update that matched nothing; a truncated one when the Records are unknown", () => {
    expect(changeEventOf(applied({ out: { count: 0, changes: [] } }), ada, undefined, at)).toBeUndefined();
    expect(changeEventOf(applied({ detail: { values: [{ key: "a" }], beforeImagesOmitted: 5 }, out: { count: 10_005, changes: [] } }), ada, undefined, at)).toMatchObject({ truncated: true, fields: ["a"] });
  });
  it("inserts carry their Records, deletes their keys, files their keys", () => {
    expect(changeEventOf(applied({ kind: "insert", keys: ["E9"], detail: { records: [{ id: "E9", a: 1 }] } }), ada, undefined, at)).toMatchObject({ kind: "insert", records: [{ key: "E9", values: { id: "E9", a: 1 } }] });
    expect(changeEventOf(applied({ kind: "delete-records", keys: ["E1", "E2"], out: { count: 2 } }), ada, undefined, at)).toMatchObject({ records: [{ key: "E1" }, { key: "E2" }] });
    expect(changeEventOf(applied({ kind: "upload", resource: "bucket:b", keys: ["x/y.png"] }), ada, undefined, at)).toMatchObject({ bucket: "b", keys: ["x/y.png"] });
  });
  it("no event for a change that changed nothing: an empty insert, an import of the Records as they were, a completion asked again (review 54a #5)", () => {
    expect(changeEventOf(applied({ kind: "insert", detail: { records: [] }, out: { count: 0 } }), ada, undefined, at)).toBeUndefined();
    expect(changeEventOf(applied({ kind: "import", out: { count: 5, inserted: 0, updated: 5, changed: 0 } }), ada, undefined, at)).toBeUndefined();
    expect(changeEventOf(applied({ kind: "import", out: { count: 5, inserted: 0, updated: 5, changed: 1 } }), ada, undefined, at)).toMatchObject({ kind: "import", count: 5 });
    expect(changeEventOf(applied({ kind: "upload", resource: "bucket:b", keys: ["x/y.png"], out: { again: true } }), ada, undefined, at)).toBeUndefined();
    expect(changeEventOf(applied({ kind: "upload", resource: "bucket:b", keys: ["x/y.png"], out: {} }), ada, undefined, at)).toMatchObject({ kind: "upload" });
  });
  it("a storage job that ended says how many files it took, past the list's limit too (review 56a #7)", () => {
    const job = (detail: Record<string, unknown>, out: Record<string, unknown>) => changeEventOf(applied({ kind: "storage-job", resource: "bucket:b", keys: ["big/"], detail: { action: "copy", from: "big/", to: "copy1/", ...detail }, out }), ada, undefined, at);
    expect(job({ files: ["big/a"], filesMore: true }, { job: { state: "done", done: 5500 } })).toMatchObject({ job: "copy", count: 5500 });
    expect(job({ files: ["big/a", "big/b"] }, { job: { state: "done" } })).toMatchObject({ count: 2 });
  });
  it("a restored version announces the key's file as replaced, as an upload over it does", () => {
    const e = changeEventOf(applied({ kind: "restore-file", resource: "bucket:b", keys: ["x/y.png"], detail: { restoredFrom: "v1/x/y.png" }, out: { versionedKey: "v2/x/y.png" } }), ada, "t", at);
    expect(e).toEqual({ at: "2026-11-25T10:00:00.000Z", resource: "bucket:b", bucket: "b", actor: ada, origin: "baseboard", tab: "t", kind: "upload", keys: ["x/y.png"] });
  });
});
