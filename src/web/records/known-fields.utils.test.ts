import { describe, expect, it } from "vitest";
import { fieldsFromNames, fieldsFromRows, mergeKnownFields, namesInView, readKnownFieldsMap, resolveFields } from "./known-fields.utils";

describe("known Fields", () => {
  const page1 = fieldsFromRows([{ id: "E1", exit_date: "2024-01-02", age: 40 }], "id");
  const page2 = fieldsFromRows([{ id: "E2", exit_date: null, age: 41 }], "id");

  it("learns types from values and marks all-null columns as guesses", () => {
    expect(page2.find((f) => f.key === "exit_date")).toMatchObject({ type: "text", guessed: true });
    expect(page1.find((f) => f.key === "exit_date")).toMatchObject({ type: "date" });
    expect(page1.find((f) => f.key === "id")).toMatchObject({ primaryKey: true, nullable: false });
  });

  it("takes a column of objects, or of mixed kinds of values, for json", () => {
    const fields = fieldsFromRows([{ id: "1", meta: { a: 1 }, mixed: 3, s: "x" }, { id: "2", meta: "plain", mixed: "three", s: "2024-01-02" }], "id");
    expect(fields.map((f) => [f.key, f.type])).toEqual([["id", "text"], ["meta", "json"], ["mixed", "json"], ["s", "text"]]);
  });

  it("never downgrades a known type: a page of nulls after a page of dates keeps date", () => {
    const known = mergeKnownFields(page1, page2);
    expect(known).toBe(page1);
    expect(known.find((f) => f.key === "exit_date")?.type).toBe("date");
  });

  it("replaces a guess by the first real type, and only once", () => {
    const known = mergeKnownFields(page2, page1);
    expect(known.find((f) => f.key === "exit_date")).toEqual({ key: "exit_date", type: "date", nullable: true, primaryKey: false });
    const later = mergeKnownFields(known, fieldsFromRows([{ exit_date: "soon" }], "id"));
    expect(later.find((f) => f.key === "exit_date")?.type).toBe("date");
  });

  it("keeps Fields no longer in the rows (hidden columns) and appends new ones in order", () => {
    const known = mergeKnownFields(page1, fieldsFromRows([{ id: "E3", city: "Lima" }], "id"));
    expect(known.map((f) => f.key)).toEqual(["id", "exit_date", "age", "city"]);
  });

  it("puts declared Fields first with their types, then learnt ones; the endpoint wins over both", () => {
    const declared = [{ key: "image", type: "image" as const, bucket: "public-assets" }, { key: "id", type: "text" as const }];
    const learnt = mergeKnownFields([], fieldsFromRows([{ id: "c1", image: "a.png", price: 3 }], "id"));
    expect(resolveFields(undefined, declared, learnt, "id")).toEqual([
      { key: "image", type: "image", bucket: "public-assets", nullable: true, primaryKey: false },
      { key: "id", type: "text", nullable: false, primaryKey: true },
      { key: "price", type: "number", nullable: true, primaryKey: false },
    ]);
    const endpoint = [{ key: "x", type: "number" as const, nullable: true, primaryKey: false }];
    expect(resolveFields(endpoint, declared, learnt, "id")).toEqual(endpoint);
  });

  it("names what a view mentions, from a deeply nested filter too", () => {
    let f: { and: unknown[] } = { and: [{ key: "country", operator: "equal", value: "x" }] };
    for (let i = 0; i < 5000; i++) f = { and: [f] };
    expect(namesInView(f as never, [{ key: "age" }], ["city", "country"])).toEqual(["country", "age", "city"]);
    expect(fieldsFromNames(["a"], "id")).toEqual([{ key: "a", type: "text", nullable: true, primaryKey: false, guessed: true }]);
  });

  it("reads back what it stored and ignores anything else", () => {
    expect(readKnownFieldsMap(JSON.stringify({ "demo/t": page1 }))).toEqual({ "demo/t": page1 });
    expect(readKnownFieldsMap("{not json")).toEqual({});
    expect(readKnownFieldsMap(JSON.stringify({ "demo/t": [{ nope: 1 }], x: 3 }))).toEqual({ "demo/t": [] });
  });
});
