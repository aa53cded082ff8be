/** The trail's stored form of an update's changes, and how clients read it (record-changes.ts). */
import { describe, expect, it } from "vitest";
import { changesSize, expandChanges, keysPinnedBy, packChanges } from "./record-changes";

describe("packChanges / expandChanges", () => {
  const images = {
    fields: ["id", "city", "age"],
    rows: [
      ["A", "Lisbon", 30],
      ["B", "Porto", 41],
      ["C", null, null],
    ],
  };

  it("keeps what was there per Record and lists only the Fields that changed", () => {
    const { changes, keys } = packChanges(images, [
      { key: "city", value: "Porto" },
      { key: "age", value: 41 },
    ]);
    expect(keys).toEqual(["A", "B", "C"]);
    expect(changesSize(changes)).toBe(3);
    expect(expandChanges(changes)).toEqual([
      { key: "A", before: { city: "Lisbon", age: 30 }, after: { city: "Porto", age: 41 } },
      // B already held both values: no change.
      { key: "C", before: { city: null, age: null }, after: { city: "Porto", age: 41 } },
    ]);
    expect(expandChanges(changes, "C")).toEqual([{ key: "C", before: { city: null, age: null }, after: { city: "Porto", age: 41 } }]);
    expect(expandChanges(changes, "B")).toEqual([]);
  });

  it("a renamed primary key, a key that is not text, JSON values compared by content", () => {
    const renamed = packChanges({ fields: ["id"], rows: [["A"]] }, [{ key: "id", value: "A2" }]);
    expect(expandChanges(renamed.changes)).toEqual([{ key: "A", before: { id: "A" }, after: { id: "A2" } }]);
    const numeric = packChanges({ fields: ["n", "spec"], rows: [[7, { a: [1, 2] }], [8, { a: [1] }]] }, [{ key: "spec", value: { a: [1, 2] } }]);
    expect(numeric.keys).toEqual(["7", "8"]);
    expect(expandChanges(numeric.changes)).toEqual([{ key: 8, before: { spec: { a: [1] } }, after: { spec: { a: [1, 2] } } }]);
    expect(expandChanges(numeric.changes, "8")).toHaveLength(1);
    expect(expandChanges(numeric.changes, "7")).toEqual([]);
  });

  it("reads entries written before this shape (one object per changed Record), and nothing as undefined", () => {
    const old = [
      { key: "A", before: { city: "Lisbon" }, after: { city: "Porto" } },
      { key: 5, before: { city: "Faro" }, after: { city: "Porto" } },
    ];
    expect(expandChanges(old)).toEqual(old);
    expect(expandChanges(old, "5")).toEqual([old[1]]);
    expect(changesSize(old)).toBe(2);
    expect(expandChanges(undefined)).toBeUndefined();
    expect(expandChanges({ something: "else" })).toBeUndefined();
    expect(changesSize(undefined)).toBe(0);
  });
});

describe("keysPinnedBy", () => {
  it("names the Records a filter confines a change to, and nothing when it may reach others", () => {
    const eq = (key: string, value: unknown) => ({ key, operator: "equal", value });
    expect(keysPinnedBy({ and: [eq("id", "E1")] }, "id")).toEqual(["E1"]);
    expect(keysPinnedBy({ and: [eq("city", "Faro"), eq("id", 7)] }, "id")).toEqual(["7"]);
    expect(keysPinnedBy({ and: [{ key: "id", operator: "anyOf", value: ["E1", "E2"] }] }, "id")).toEqual(["E1", "E2"]);
    expect(keysPinnedBy({ or: [eq("id", "E1"), { and: [eq("id", "E2"), eq("a", 1)] }, eq("id", "E1")] }, "id")).toEqual(["E1", "E2"]);
    // Reaching past them: no list.
    expect(keysPinnedBy({ or: [eq("id", "E1"), eq("city", "Faro")] }, "id")).toBeUndefined();
    expect(keysPinnedBy({ and: [eq("city", "Faro")] }, "id")).toBeUndefined();
    expect(keysPinnedBy({ and: [{ key: "id", operator: "notEqual", value: "E1" }] }, "id")).toBeUndefined();
    expect(keysPinnedBy({ and: [] }, "id")).toBeUndefined();
    expect(keysPinnedBy({ and: [eq("id", null)] }, "id")).toBeUndefined();
    expect(keysPinnedBy(undefined, "id")).toBeUndefined();
    // 10,000 levels (the interface allows them) end the walk, not the stack.
    let deep: unknown = eq("id", "E1");
    for (let i = 0; i < 10_000; i++) deep = { and: [deep] };
    expect(keysPinnedBy(deep, "id")).toBeUndefined();
    expect(keysPinnedBy({ and: [{ and: [{ or: [eq("id", "E3")] }] }] }, "id")).toEqual(["E3"]);
  });
});
