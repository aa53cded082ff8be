import { describe, expect, it } from "vitest";
import type { FilterGroup } from "../../../shared/filter";
import {
  addChild,
  duplicateNode,
  fromWire,
  type GroupNode,
  moveNode,
  newCondition,
  newGroup,
  removeNode,
  setGroupOp,
  toWire,
  updateCondition,
  wrapInGroup,
} from "./filter-tree.utils";

const sample: FilterGroup = {
  and: [
    { key: "department", operator: "equal", value: "Sales" },
    { or: [{ key: "age", operator: "greaterThan", value: 40 }, { key: "exit_date", operator: "equal", value: null }] },
    { key: "country", operator: "equal", value: "France", isFixed: true },
  ],
};

describe("wire round trip", () => {
  it.each([
    [{ and: [] }],
    [{ or: [] }],
    [sample],
    [{ or: [{ and: [{ or: [{ key: "a", operator: "isEmpty" }] }] }] }],
    [{ and: [{ key: "b", operator: "equal", value: true }, { key: "c", operator: "equal", value: 0 }] }],
  ] as FilterGroup[][])("fromWire→toWire keeps %j", (f) => {
    expect(toWire(fromWire(f))).toEqual(f);
  });
  it("drops value for valueless operators and writes null for a missing one", () => {
    const root = addChild(addChild(fromWire({ and: [] }), "x", newCondition("a")), "x", newCondition("a"));
    const r = fromWire({ and: [] });
    const withConds = addChild(addChild(r, r.id, newCondition("a", "isEmpty", "zzz")), r.id, { ...newCondition("b"), value: undefined });
    expect(toWire(withConds)).toEqual({ and: [{ key: "a", operator: "isEmpty" }, { key: "b", operator: "equal", value: null }] });
    expect(root.children).toHaveLength(0); // unknown group id: no change
  });
});

const and = (f: FilterGroup) => (f as { and: unknown[] }).and;

function ids(root: GroupNode) {
  const [dept, group, country] = root.children;
  return { dept: dept.id, group: group.id, country: country.id, inner: (group as GroupNode).children.map((c) => c.id) };
}

describe("edits", () => {
  it("updates a condition and refuses to edit a locked one until unlocked", () => {
    const root = fromWire(sample);
    const { dept, country } = ids(root);
    expect(and(toWire(updateCondition(root, dept, { value: "HR" })))[0]).toEqual({ key: "department", operator: "equal", value: "HR" });
    expect(updateCondition(root, country, { value: "Spain" })).toBe(root);
    const unlocked = updateCondition(root, country, { isFixed: false });
    expect(and(toWire(updateCondition(unlocked, country, { value: "Spain" })))[2]).toEqual({ key: "country", operator: "equal", value: "Spain" });
  });

  it("removes nodes, but not a locked condition or a group holding one", () => {
    const root = fromWire(sample);
    const { dept, country, group } = ids(root);
    expect(and(toWire(removeNode(root, dept)))).toHaveLength(2);
    expect(removeNode(root, country)).toBe(root);
    const wrapped = wrapInGroup(root, country);
    const wrapper = wrapped.children[2];
    expect(removeNode(wrapped, wrapper.id)).toBe(wrapped);
    expect(and(toWire(removeNode(root, group)))).toHaveLength(2);
  });

  it("duplicates right after the original, unlocked, with fresh ids", () => {
    const root = fromWire(sample);
    const { country, group } = ids(root);
    const d = duplicateNode(root, country);
    expect(and(toWire(d))[3]).toEqual({ key: "country", operator: "equal", value: "France" });
    const g = duplicateNode(root, group);
    expect(and(toWire(g))[2]).toEqual(and(toWire(root))[1]);
    expect(g.children[2].id).not.toBe(group);
  });

  it.each([
    ["dept down enters the following group as its first child", "dept", "down", { and: [{ or: ["department", "age", "exit_date"] }, "country"] }],
    ["dept up at the root edge: no change", "dept", "up", null],
    ["first inner up leaves the group before it", "inner0", "up", { and: ["department", "age", { or: ["exit_date"] }, "country"] }],
    ["last inner down leaves the group after it", "inner1", "down", { and: ["department", { or: ["age"] }, "exit_date", "country"] }],
    ["inner swap", "inner0", "down", { and: ["department", { or: ["exit_date", "age"] }, "country"] }],
    ["locked country does not move", "country", "up", null],
  ] as const)("move: %s", (_name, which, dir, expected) => {
    const root = fromWire(sample);
    const i = ids(root);
    const id = which === "inner0" ? i.inner[0] : which === "inner1" ? i.inner[1] : i[which as "dept" | "country"];
    const moved = moveNode(root, id, dir);
    if (expected === null) {
      expect(moved).toBe(root);
      return;
    }
    expect(shape(toWire(moved))).toEqual(expected);
  });

  it("sets a group's op and adds nested groups", () => {
    const root = fromWire({ and: [] });
    const g = newGroup("or", [newCondition("a", "equal", 1)]);
    const r = setGroupOp(addChild(root, root.id, g), g.id, "and");
    expect(toWire(r)).toEqual({ and: [{ and: [{ key: "a", operator: "equal", value: 1 }] }] });
  });
});

/** Compact shape: conditions by key, groups as {op: [...]} */
function shape(f: FilterGroup): unknown {
  const op = "and" in f ? "and" : "or";
  const list = (f as Record<string, unknown[]>)[op];
  return { [op]: list.map((n) => (typeof n === "object" && n && ("and" in n || "or" in n) ? shape(n as FilterGroup) : (n as { key: string }).key)) };
}

describe("is any of", () => {
  const f = { and: [{ key: "department", operator: "anyOf", value: ["Sales", "Legal"] }] } as unknown as FilterGroup;
  it("round-trips as anyOf when the upstream has it", () => {
    expect(toWire(fromWire(f), { anyOf: true })).toEqual(f);
  });
  it("goes as an or of equals to an upstream without it (the hosted interface)", () => {
    expect(toWire(fromWire(f), { anyOf: false })).toEqual({
      and: [{ or: [{ key: "department", operator: "equal", value: "Sales" }, { key: "department", operator: "equal", value: "Legal" }] }],
    });
  });
});
