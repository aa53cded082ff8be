import { describe, expect, it } from "vitest";
import { buildQueryBody, colsAfterJoin, formatJoin, rangeLabel, reuseViewParts, sanitizeSearch, toView } from "./view-search.utils";

describe("sanitizeSearch", () => {
  it("keeps a valid view", () => {
    const raw = {
      filter: { and: [{ key: "age", operator: "greaterThan", value: 30 }] },
      sort: "age,-full_name",
      cols: "full_name,age",
      join: "departments:department=department",
      page: 3,
      size: 100,
    };
    const { search, problems } = sanitizeSearch(raw);
    expect(problems).toEqual([]);
    expect(search).toEqual(raw);
  });

  it("reads a lone condition in a link as a group of one (review 38b #3: written by hand, it was dropped)", () => {
    const condition = { key: "country", operator: "equal", value: "Brazil" };
    for (const filter of [condition, JSON.stringify(condition)]) {
      const { search, problems } = sanitizeSearch({ filter });
      expect(problems).toEqual([]);
      expect(search.filter).toEqual({ and: [condition] });
    }
  });

  it.each([
    [{ filter: "{oops" }, /filter in the link was ignored/],
    [{ filter: { x: [] } }, /filter in the link was ignored/],
    [{ sort: "a,,b" }, /sort/],
    [{ sort: "a,a" }, /sort/],
    [{ cols: "" }, /column list/],
    [{ join: "departments" }, /join/],
    [{ page: 0 }, /Page "0"/],
    [{ page: "2.5" }, /Page/],
    [{ size: 30 }, /Page size "30" is not offered; using 50/],
  ])("drops %j with a message", (raw, message) => {
    const { search, problems } = sanitizeSearch(raw as Record<string, unknown>);
    expect(Object.keys(search)).toEqual([]);
    expect(problems.join(" ")).toMatch(message);
  });

  it("accepts numbers given as strings", () => {
    expect(sanitizeSearch({ page: "2", size: "25" }).search).toEqual({ page: 2, size: 25 });
  });
});

describe("view → query body", () => {
  it("pages, sorts, joins and always fetches the primary key", () => {
    const view = toView({ sort: "-age", cols: "age", page: 3, size: 25, join: "departments:department=department" });
    expect(buildQueryBody(view, "employee_id")).toEqual({
      limit: 25,
      skip: 50,
      sort: [{ key: "age", direction: "descending" }],
      select: ["employee_id", "age"],
      join: [{ targetTable: "departments", rules: [{ tableKey: "department", targetTableKey: "department" }] }],
    });
    expect(formatJoin(view.join)).toBe("departments:department=department");
  });
  it("defaults", () => {
    expect(buildQueryBody(toView({}), "id")).toEqual({ limit: 50, skip: 0, sort: [] });
  });
});

it.each([
  [1, 50, 1234, "1–50 of 1,234"],
  [25, 50, 1234, "1,201–1,234 of 1,234"],
  [1, 50, 0, "0 of 0"],
  [9, 50, 100, "none of 100"],
])("rangeLabel(%i, %i, %i) = %s", (page, size, count, label) => {
  expect(rangeLabel(page, size, count)).toBe(label);
});

describe("colsAfterJoin", () => {
  const join = { targetTable: "departments", rules: [{ tableKey: "department", targetTableKey: "department" }] };
  const dept = [{ key: "department" }, { key: "head" }];
  it.each([
    ["no choice stays no choice", undefined, join, dept, undefined],
    ["own columns kept, joined ones added", ["full_name", "age"], join, dept, "full_name,age,departments.department,departments.head"],
    ["old join's columns replaced", ["age", "teams.lead"], join, dept, "age,departments.department,departments.head"],
    ["join removed: own columns kept", ["age", "departments.head"], undefined, undefined, "age"],
    ["unknown target fields: show all", ["age"], join, undefined, undefined],
  ] as const)("%s", (_, cols, j, fields, expected) => {
    expect(colsAfterJoin(cols, j, fields)).toBe(expected);
  });
});

describe("reuseViewParts", () => {
  const a = toView({ sort: "age,-full_name", cols: "full_name,age", join: "departments:department=department", filter: { and: [{ key: "age", operator: "greaterThan", value: 30 }] } });

  it("keeps the objects of parts that did not change", () => {
    const b = toView({ sort: "age,-full_name", cols: "full_name,age", join: "departments:department=department", filter: { and: [{ key: "age", operator: "greaterThan", value: 30 }] }, page: 2 });
    const r = reuseViewParts(a, b);
    expect(r.sort).toBe(a.sort);
    expect(r.cols).toBe(a.cols);
    expect(r.join).toBe(a.join);
    expect(r.filter).toBe(a.filter);
    expect(r.page).toBe(2);
  });

  it("takes the new objects of parts that changed", () => {
    const b = toView({ sort: "-age", cols: "age", filter: { and: [{ key: "age", operator: "greaterThan", value: 31 }] } });
    const r = reuseViewParts(a, b);
    expect(r).toEqual(b);
    expect(r.sort).toBe(b.sort);
    expect(r.filter).toBe(b.filter);
    expect(r.join).toBeUndefined();
  });

  it("returns the next view when there is no previous one", () => {
    expect(reuseViewParts(undefined, a)).toBe(a);
  });
});
