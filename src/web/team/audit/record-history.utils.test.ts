import { describe, expect, it } from "vitest";
import type { AuditItem } from "./audit-list-query";
import { recordVersions, restoreValues } from "./record-history.utils";

let seq = 100;
const upd = (key: string, before: Record<string, unknown>, after: Record<string, unknown>, extra: Partial<AuditItem> = {}): AuditItem =>
  ({ seq: seq--, at: `2026-11-25T10:${String(seq % 60).padStart(2, "0")}:00.000Z`, actor: "ada@example.com", action: "update", keys: [key], keyCount: 1, outcome: "applied", changes: [{ key, before, after }], ...extra }) as AuditItem;

describe("recordVersions", () => {
  it("restoring a version sets every Field changed since to its value before the first later change", () => {
    // Newest first: salary 300→400, title A→B and salary 200→300, salary 100→200.
    const items = [upd("E1", { salary: 300 }, { salary: 400 }), upd("E1", { title: "A", salary: 200 }, { title: "B", salary: 300 }), upd("E1", { salary: 100 }, { salary: 200 })];
    const v = recordVersions(items, "E1", "id");
    expect(v.map((x) => x.what)).toEqual(["changed", "changed", "changed"]);
    expect(v[0].target).toBeUndefined();
    expect(v[0].why).toMatch(/current/);
    expect(v[1].target).toEqual({ salary: 300 });
    expect(v[2].target).toEqual({ salary: 200, title: "A" });
    expect(v[2].fields).toEqual([{ field: "salary", before: 100, after: 200 }]);
  });

  it("skips refused and failed entries, and other Records' changes", () => {
    const items = [upd("E1", { a: 1 }, { a: 2 }, { outcome: "failed" }), upd("E2", { a: 5 }, { a: 6 }), upd("E1", { a: 0 }, { a: 1 })];
    const v = recordVersions(items, "E1", "id");
    expect(v).toHaveLength(1);
    expect(v[0].fields).toEqual([{ field: "a", before: 0, after: 1 }]);
  });

  it("a delete since a version blocks its restore; an insert is shown as added", () => {
    const items: AuditItem[] = [
      { seq: 9, at: "2026-11-25T11:00:00.000Z", actor: "eve@example.com", action: "delete-records", keys: ["E1"], keyCount: 1, outcome: "applied" },
      upd("E1", { a: 1 }, { a: 2 }),
      upd("E1", { a: 0 }, { a: 1 }),
      { seq: 1, at: "2026-11-25T09:00:00.000Z", actor: "eve@example.com", action: "insert", keys: ["E1"], keyCount: 1, outcome: "applied", records: [{ id: "E1", a: 0 }] },
    ];
    const v = recordVersions(items, "E1", "id");
    expect(v.map((x) => x.what)).toEqual(["deleted", "changed", "changed", "added"]);
    expect(v[2].target).toBeUndefined();
    expect(v[2].why).toMatch(/deleted since/);
    expect(v[3].fields).toEqual([{ field: "a", before: undefined, after: 0 }]);
  });

  it("deleted, then added again (Undo of the delete): the versions before can be restored, and the new one is current", () => {
    const items: AuditItem[] = [
      { seq: 20, at: "2026-11-25T12:00:00.000Z", actor: "eve@example.com", action: "insert", keys: ["E1"], keyCount: 1, outcome: "applied", records: [{ id: "E1", a: 2 }] },
      { seq: 19, at: "2026-11-25T11:00:00.000Z", actor: "eve@example.com", action: "delete-records", keys: ["E1"], keyCount: 1, outcome: "applied" },
      upd("E1", { a: 1 }, { a: 2 }),
      upd("E1", { a: 0 }, { a: 1 }),
    ];
    const v = recordVersions(items, "E1", "id");
    expect(v.map((x) => x.what)).toEqual(["added", "deleted", "changed", "changed"]);
    expect(v[0].why).toMatch(/current/);
    expect(v[3].target).toEqual({ a: 1 });
    expect(v[3].why).toBeUndefined();
  });

  it("a change whose answer never came back (outcome unknown) is shown as perhaps this one, and blocks restoring what came before (review 52a #1)", () => {
    const items: AuditItem[] = [
      { seq: 60, at: "2026-11-25T10:40:00.000Z", actor: "eve@example.com", action: "update", keys: ["E1"], keyCount: 1, outcome: "unknown" } as AuditItem,
      upd("E1", { a: 1 }, { a: 2 }),
      upd("E1", { a: 0 }, { a: 1 }),
    ];
    const v = recordVersions(items, "E1", "id");
    expect(v.map((x) => x.what)).toEqual(["maybe", "changed", "changed"]);
    expect(v[0].why).toMatch(/^Its answer never came back .* it may have changed this Record\.$/);
    expect(v[2].target).toBeUndefined();
    expect(v[2].why).toMatch(/may have changed this Record/);
    // A failed or refused one changed nothing: still left out.
    expect(recordVersions([{ ...items[0], outcome: "failed" }, items[1]], "E1", "id").map((x) => x.what)).toEqual(["changed"]);
  });

  it("a delete named by its filter that did not remove this Record is not its deletion", () => {
    const items: AuditItem[] = [
      { seq: 70, at: "2026-11-25T10:50:00.000Z", actor: "eve@example.com", action: "delete-records", keys: ["E1", "E2"], keyCount: 2, outcome: "applied", deleted: [{ id: "E2", a: 5 }] } as AuditItem,
      upd("E1", { a: 0 }, { a: 1 }),
    ];
    expect(recordVersions(items, "E1", "id").map((x) => x.what)).toEqual(["changed"]);
    expect(recordVersions(items, "E2", "id").map((x) => x.what)).toEqual(["deleted"]);
  });

  it("a change past the before-images' limit that may have touched the Record: shown, and it blocks restoring what came before", () => {
    const items: AuditItem[] = [
      upd("E1", { a: 2 }, { a: 3 }),
      { seq: 50, at: "2026-11-25T10:30:00.000Z", actor: "eve@example.com", action: "update", keys: ["E9"], keyCount: 10_000, outcome: "applied", beforeImagesOmitted: 9, partial: true } as AuditItem,
      upd("E1", { a: 1 }, { a: 2 }),
      upd("E1", { a: 0 }, { a: 1 }),
    ];
    const v = recordVersions(items, "E1", "id");
    expect(v.map((x) => x.what)).toEqual(["changed", "maybe", "changed", "changed"]);
    expect(v[1].why).toMatch(/values were not kept/);
    expect(v[1].target).toBeUndefined();
    // Older than the unknown change: what to set back is not known.
    expect(v[2].target).toBeUndefined();
    expect(v[2].why).toMatch(/may have changed this Record/);
    expect(v[3].target).toBeUndefined();
  });

  it("changes past the limit older than the Record's addition are not listed; an import past the limit says so", () => {
    const maybe = (seq: number, action = "update") => ({ seq, at: "2026-11-25T10:30:00.000Z", actor: "eve@example.com", action, keys: ["E9"], keyCount: 10_000, outcome: "applied", partial: true }) as AuditItem;
    const added: AuditItem = { seq: 60, at: "2026-11-25T11:00:00.000Z", actor: "eve@example.com", action: "import", keys: ["N1"], keyCount: 1, outcome: "applied", added: true };
    expect(recordVersions([maybe(70), added, maybe(50)], "N1", "id").map((x) => [x.seq, x.what])).toEqual([[70, "maybe"], [60, "added"]]);
    // An import that only added Records it did not all name cannot have touched one that existed before it.
    const existed = recordVersions([maybe(90, "import"), upd("N3", { a: 1 }, { a: 2 })], "N3", "id");
    expect(existed.map((x) => x.what)).toEqual(["changed"]);
    expect(existed[0].why).toMatch(/current/);
    // One that also left updates unnamed (past the before-images) may have: listed.
    const updatedToo = recordVersions([{ ...maybe(91, "import"), beforeImagesOmitted: 5 }, upd("N3", { a: 1 }, { a: 2 })], "N3", "id");
    expect(updatedToo.map((x) => x.what)).toEqual(["maybe", "changed"]);
    // In its words: it changed more Records than it named (it may have added none past them).
    expect(updatedToo[0].why).toBe("The import changed more than 10,000 Records; not all were named.");
    expect(recordVersions([{ ...maybe(92, "import"), beforeImagesOmitted: 5, addedOmitted: 3 }], "N4", "id")[0].why).toBe("The import changed and added more than 10,000 Records each; not all were named.");
    // Only the import that perhaps added it: listed, in its words.
    const only = recordVersions([maybe(80, "import")], "N2", "id", true);
    expect(only.map((x) => x.what)).toEqual(["maybe"]);
    expect(only[0].why).toMatch(/import added more than 10,000 Records/);
  });

  it("a change of the key: the versions before it (under the old key) restore their Fields, never the key", () => {
    // As GET /api/audit lists the history of R1: the rename and what came before carry recordKey.
    const items = [
      upd("R1", { salary: 300 }, { salary: 400 }),
      upd("E1", { id: "E1", salary: 200 }, { id: "R1", salary: 300 }, { recordKey: "E1" }),
      upd("E1", { salary: 100 }, { salary: 200 }, { recordKey: "E1" }),
    ];
    const v = recordVersions(items, "R1", "id");
    expect(v.map((x) => x.what)).toEqual(["changed", "renamed", "changed"]);
    expect(v[1].key).toEqual({ from: "E1", to: "R1" });
    expect(v[1].fields).toEqual([{ field: "salary", before: 200, after: 300 }]);
    expect(v[1].target).toEqual({ salary: 300 });
    expect(v[2].target).toEqual({ salary: 200 });
  });

  it("the key given to another Record: what came before was that Record's, and is not restored here", () => {
    // The history of E1 after E1 became R1 and a new E1 was added.
    const items: AuditItem[] = [
      { seq: 50, at: "2026-11-25T12:00:00.000Z", actor: "eve@example.com", action: "insert", keys: ["E1"], keyCount: 1, outcome: "applied", records: [{ id: "E1", salary: 1 }] },
      upd("E1", { id: "E1" }, { id: "R1" }),
      upd("E1", { salary: 100 }, { salary: 200 }),
    ];
    const v = recordVersions(items, "E1", "id");
    expect(v.map((x) => x.what)).toEqual(["added", "renamedAway", "changed"]);
    expect(v[1].why).toMatch(/goes on under R1/);
    expect(v[2].target).toBeUndefined();
    expect(v[2].why).toMatch(/key changed to R1 since/);
  });

  it("with every page read, the Record as it was before its first recorded change can be restored too", () => {
    const items = [upd("E1", { salary: 210 }, { salary: 220 }), upd("E1", { salary: 209, title: "A" }, { salary: 210, title: "B" })];
    expect(recordVersions(items, "E1", "id").map((v) => v.what)).toEqual(["changed", "changed"]);
    const v = recordVersions(items, "E1", "id", true);
    expect(v.map((x) => x.what)).toEqual(["changed", "changed", "original"]);
    expect(v[2].fields).toEqual([{ field: "salary", before: undefined, after: 209 }, { field: "title", before: undefined, after: "A" }]);
    expect(v[2].target).toEqual({ salary: 209, title: "A" });
    // A Field first changed later (not by the oldest change) is listed too: the card shows
    // every Field its Restore sets back (it showed the oldest change's Fields only).
    const later = recordVersions([upd("E4", { job: "Controller" }, { job: "Paster2" }), upd("E4", { name: "Ann", bonus: 1 }, { name: "Bo", bonus: 2 })], "E4", "id", true);
    expect(later[2].fields.map((f) => [f.field, f.after])).toEqual([["name", "Ann"], ["bonus", 1], ["job", "Controller"]]);
    expect(later[2].target).toEqual({ name: "Ann", bonus: 1, job: "Controller" });
    // One change only: the one thing to restore is the Record before it.
    const one = recordVersions([upd("E2", { salary: 1 }, { salary: 2 })], "E2", "id", true);
    expect(one.map((x) => [x.what, x.target])).toEqual([["changed", undefined], ["original", { salary: 1 }]]);
    // A Record added through Baseboard has no earlier state.
    const added: AuditItem = { seq: 1, at: "2026-11-25T09:00:00.000Z", actor: "eve@example.com", action: "insert", keys: ["E3"], keyCount: 1, outcome: "applied", records: [{ id: "E3", a: 0 }] };
    expect(recordVersions([upd("E3", { a: 0 }, { a: 1 }), added], "E3", "id", true).map((x) => x.what)).toEqual(["changed", "added"]);
  });

  it("numeric primary keys match by their text", () => {
    const items = [upd(7 as unknown as string, { a: 1 }, { a: 2 })];
    expect(recordVersions(items, "7", "id")).toHaveLength(1);
  });
});

describe("restoreValues", () => {
  it("sends only the Fields whose current value differs", () => {
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    expect(restoreValues({ id: "E1", salary: 400, title: "A" }, { salary: 200, title: "A" }, same)).toEqual([{ field: "salary", from: 400, to: 200 }]);
  });
  it("says why a change that could not read what it overwrote may have changed the Record", () => {
    const it0 = { seq: 70, at: "2026-11-27T07:00:00.000Z", actor: "ada@example.com", action: "update", keys: [], keyCount: 0, outcome: "applied", beforeImagesOmitted: 999, beforeImagesUnreadable: true, partial: true } as AuditItem;
    expect(recordVersions([it0], "E1", "id")[0]).toMatchObject({ what: "maybe", why: expect.stringMatching(/^The values this change overwrote could not be read/) });
  });
});
