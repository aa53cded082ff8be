import { describe, expect, it } from "vitest";
import { joinedKeys } from "./filter";
import { type ParsedNode, parseFilter } from "./filter-parse";

const c = (key: string, operator = "equal", value: unknown = 1) => ({ key, operator, value });
/** Compact rendering of a normalized tree, e.g. `and(a, or(b, c))`. */
function show(n: ParsedNode): string {
  return n.kind === "condition" ? n.key : `${n.op}(${n.children.map(show).join(", ")})`;
}

describe("parseFilter flattens", () => {
  const cases: [string, unknown, string, number][] = [
    ["a flat group", { and: [c("a"), c("b")] }, "and(a, b)", 1],
    ["a single-element group into its element", { and: [c("a")] }, "a", 0],
    ["single-element groups at every level", { or: [{ and: [{ or: [c("a")] }] }] }, "a", 0],
    ["a group inside a group of the same kind", { and: [c("a"), { and: [c("b"), c("c")] }] }, "and(a, b, c)", 1],
    ["same kind through a single-element group", { and: [c("a"), { or: [{ and: [c("b"), c("c")] }] }] }, "and(a, b, c)", 1],
    ["but keeps alternating kinds", { and: [c("a"), { or: [c("b"), { and: [c("c"), c("d")] }] }] }, "and(a, or(b, and(c, d)))", 3],
    ["empty groups stay (and: all, or: none)", { and: [c("a"), { or: [] }] }, "and(a, or())", 2],
    ["an empty top-level group", { and: [] }, "and()", 1],
  ];
  it.each(cases)("%s", (_name, raw, expected, depth) => {
    const parsed = parseFilter(raw);
    expect(parsed.ok && show(parsed.value.root)).toBe(expected);
    expect(parsed.ok && parsed.value.depth).toBe(depth);
  });

  it("keeps order, values and conditions' paths", () => {
    const parsed = parseFilter({ or: [c("x", "contains", "A"), { and: [c("y", "isEmpty", null)] }] });
    expect(parsed.ok && parsed.value.root).toEqual({
      kind: "group",
      op: "or",
      children: [
        { kind: "condition", key: "x", operator: "contains", value: "A", path: "filter.or[0]" },
        { kind: "condition", key: "y", operator: "isEmpty", value: null, path: "filter.or[1].and[0]" },
      ],
    });
  });

  it("takes 100,000 levels of single-element nesting without recursion", () => {
    let raw: unknown = c("deep");
    for (let i = 0; i < 100_000; i++) raw = i % 2 ? { and: [raw] } : { or: [raw] };
    const parsed = parseFilter(raw);
    expect(parsed.ok && parsed.value).toMatchObject({ depth: 0, rawDepth: 100_000, conditions: 1 });
  });

  it("takes deep alternating nesting and reports its depth", () => {
    let raw: unknown = c("a");
    for (let i = 0; i < 20_000; i++) raw = i % 2 ? { and: [raw, c("b")] } : { or: [raw, c("c")] };
    const parsed = parseFilter(raw);
    expect(parsed.ok && parsed.value).toMatchObject({ depth: 20_000, rawDepth: 20_000, conditions: 20_001 });
  });
});

describe("parseFilter refuses", () => {
  const cases: [unknown, RegExp][] = [
    [null, /^filter must be an object with exactly one of "and" or "or", not null/],
    // A lone condition is said as one, with how to wrap it (review 38b #3: "not an object").
    [c("a"), /^filter is a single condition; the top level must be a group: wrap it as \{"and": \[\{"key":"a","operator":"equal","value":1\}\]\}\.$/],
    [{ and: [], or: [] }, /^filter has both "and" and "or"/],
    [{ and: [], extra: 1 }, /^filter has an unknown property "extra"/],
    [{ or: "x" }, /^filter\.or must be an array/],
    [{ and: [1] }, /^filter\.and\[0\] must be a condition .* not number 1/],
    [{ and: [{}] }, /^filter\.and\[0\] must be a condition .* not an object/],
    [{ and: [c("a"), { or: [{ key: "" , operator: "equal" }] }] }, /^filter\.and\[1\]\.or\[0\]\.key must be a non-empty string/],
    [{ and: [{ key: "a", operator: 3 }] }, /operator must be a string/],
    [{ and: [{ key: "a", operator: "like" }] }, /unknown operator "like"; use one of: equal, notEqual/],
    [{ and: [{ key: "a", operator: "equal", value: [1] }] }, /value must be a string, number, boolean or null, not an array/],
    [{ and: [{ key: "a", operator: "equal", isFixed: "yes" }] }, /isFixed must be a boolean/],
    [{ and: [{ key: "a", operator: "equal", id: 1 }] }, /unknown property "id"/],
  ];
  it.each(cases)("%j", (raw, message) => {
    const parsed = parseFilter(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.code).toBe("validation_error");
      expect(parsed.error.message).toMatch(message);
    }
  });

  it("names the property it was given", () => {
    const parsed = parseFilter([], "addtionalFilter");
    expect(!parsed.ok && parsed.error.message).toMatch(/^addtionalFilter must be/);
  });
});

describe("anyOf (issue 24 item 6)", () => {
  it("reads as an or of equals, with each value's path", () => {
    const r = parseFilter({ and: [{ key: "dept", operator: "anyOf", value: ["Sales", "Legal"] }, { key: "age", operator: "equal", value: 3 }] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const root = r.value.root as { children: { kind: string; op?: string; children?: { operator: string; value: unknown; path: string }[] }[] };
    const or = root.children[0];
    expect(or.op).toBe("or");
    expect(or.children!.map((c) => [c.operator, c.value, c.path])).toEqual([
      ["equal", "Sales", "filter.and[0].value[0]"],
      ["equal", "Legal", "filter.and[0].value[1]"],
    ]);
  });

  it.each([
    [{ key: "d", operator: "anyOf", value: "Sales" }, /value must be an array/],
    [{ key: "d", operator: "anyOf", value: [{}] }, /value\[0\]\.value must be a string/],
    [{ key: "d", operator: "anyOf", value: Array(1001).fill("x") }, /at most 1,000/],
    [{ key: "d", operator: "anyOf", value: [], extra: 1 }, /unknown property "extra"/],
  ])("refuses %j", (cond, message) => {
    const r = parseFilter({ and: [cond] });
    expect(!r.ok && r.error.message).toMatch(message);
  });
});

describe("joinedKeys", () => {
  it("names each condition on a joined table's Field once, at any depth", () => {
    expect(joinedKeys({ and: [{ key: "age", operator: "equal", value: 1 }, { or: [{ key: "departments.budget", operator: "greaterThan", value: 5 }, { key: "departments.budget", operator: "equal", value: 9 }] }] })).toEqual(["departments.budget"]);
    expect(joinedKeys({ and: [{ key: "age", operator: "equal", value: 1 }] })).toEqual([]);
    expect(joinedKeys(undefined)).toEqual([]);
  });
});
