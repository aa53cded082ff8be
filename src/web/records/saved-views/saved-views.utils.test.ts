import { describe, expect, it } from "vitest";
import { mergeViews, readViews, toFile, upsertView } from "./saved-views.utils";

const base = { db: "demo", table: "employees" };

describe("saved views", () => {
  it("reads a file, drops what is not valid and says so", () => {
    const r = readViews({
      version: 1,
      views: [
        { id: "a", name: "Sales", ...base, search: { filter: { and: [{ key: "department", operator: "equal", value: "Sales" }] }, sort: "-age", size: 100, page: 3 }, widths: { age: 90, bad: "x" } },
        { name: "", ...base },
        { id: "c", name: "Odd", ...base, search: { sort: "a b", size: 7 } },
      ],
    });
    expect(r.views).toHaveLength(2);
    expect(r.views[0]).toEqual({ id: "a", name: "Sales", ...base, search: { filter: { and: [{ key: "department", operator: "equal", value: "Sales" }] }, sort: "-age", size: 100 }, widths: { age: 90 } });
    expect(r.views[1].search).toEqual({});
    expect(r.problems.length).toBe(3);
    expect(readViews([1, 2]).problems[0]).toMatch(/not a Baseboard views file/);
  });
  it("says what was wrong in the file's own words: the file, not a link; a filter that is not JSON says so", () => {
    const r = readViews({ version: 1, views: [{ name: "Weird", ...base, search: { filter: "{bad json", sort: "a b" } }] });
    expect(r.problems).toHaveLength(2);
    expect(r.problems[0]).toMatch(/^Weird: The filter in the file was ignored: it is not JSON \(/);
    expect(r.problems[1]).toMatch(/^Weird: The sort "a b" in the file was ignored/);
    expect(r.problems.join(" ")).not.toMatch(/undefined|link/);
  });
  it("round-trips through the file format", () => {
    const views = upsertView([], { name: "A", ...base, search: { sort: "age" } });
    expect(readViews(JSON.parse(JSON.stringify(toFile(views)))).views).toEqual(views);
  });
  it("saving or importing the same name replaces it", () => {
    let v = upsertView([], { name: "A", ...base, search: { sort: "age" } });
    const id = v[0].id;
    v = upsertView(v, { name: "A", ...base, search: { sort: "-age" } });
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ id, search: { sort: "-age" } });
    v = mergeViews(v, [{ id: "other", name: "A", ...base, search: {} }, { id: "n", name: "B", ...base, search: {} }]);
    expect(v.map((x) => [x.id, x.name])).toEqual([[id, "A"], ["n", "B"]]);
  });
});
