import { describe, expect, it } from "vitest";
import type { FieldInfo } from "../../../shared/records";
import { allOperators } from "../../../shared/filter";
import { draftProblems, parseFilterText } from "./filter-parse.utils";
import { addChild, emptyRoot, newCondition } from "./filter-tree.utils";

const fields: FieldInfo[] = [
  { key: "employee_id", type: "text", nullable: false, primaryKey: true },
  { key: "age", type: "number", nullable: true, primaryKey: false },
  { key: "hire_date", type: "date", nullable: true, primaryKey: false },
  { key: "active", type: "boolean", nullable: true, primaryKey: false },
];

describe("parseFilterText", () => {
  const ctx = { operators: allOperators, fields };
  it.each([
    ['{"and":[]}'],
    ['{"or":[{"key":"age","operator":"equal","value":3},{"and":[{"key":"active","operator":"equal","value":null,"isFixed":true}]}]}'],
  ])("accepts %s", (text) => {
    const r = parseFilterText(text, ctx);
    expect(r.ok && JSON.stringify(r.value)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it.each([
    ["{and:[]}", /not valid JSON/],
    ["[]", /filter must be an object with exactly one of "and" or "or"/],
    ['{"key":"age","operator":"equal","value":1}', /filter is a single condition; the top level must be a group: wrap it as/],
    ['{"and":[],"or":[]}', /has both "and" and "or"/],
    ['{"and":{}}', /filter\.and must be an array/],
    ['{"and":[{"key":"nope","operator":"equal","value":1}]}', /filter\.and\[0\]\.key: there is no field "nope"/],
    // An anyOf's key is the condition's own, not one of its values' (review 52b #4).
    ['{"and":[{"key":"departmnt","operator":"anyOf","value":["Sales"]}]}', /^filter\.and\[0\]\.key: there is no field "departmnt"/],
    ['{"and":[{"or":[{"key":"age","operator":"gt","value":1}]}]}', /filter\.and\[0\]\.or\[0\]: unknown operator "gt"/],
    ['{"and":[{"key":"age","operator":"contains","value":"4"}]}', /filter\.and\[0\]: operator contains does not apply to Field "age" \(number\); use one of: equal/],
    ['{"and":[{"key":"active","operator":"greaterThan","value":true}]}', /greaterThan does not apply to Field "active" \(boolean\)/],
    ['{"and":[{"key":"age","operator":"equal","value":[1]}]}', /value must be a string, number, boolean or null/],
    ['{"and":[{"key":"age","operator":"equal","value":1,"x":2}]}', /unknown property "x"/],
    ['{"and":[{"key":"age","operator":"equal","isFixed":"yes"}]}', /isFixed must be a boolean/],
  ])("rejects %s", (text, message) => {
    const r = parseFilterText(text, ctx);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(message);
  });

  it("accepts what the service accepts, at any depth", () => {
    const deep = '{"and":['.repeat(3000) + '{"key":"hire_date","operator":"contains","value":"2020"}' + "]}".repeat(3000);
    expect(parseFilterText(deep, ctx).ok).toBe(true);
  });

  it("only offers the upstream's operators", () => {
    const r = parseFilterText('{"and":[{"key":"age","operator":"greaterThan","value":1}]}', { operators: ["equal"] });
    expect(!r.ok && r.error.message).toMatch(/use one of equal/);
  });
});

describe("draftProblems", () => {
  it.each([
    [newCondition("age", "equal", 12), undefined],
    [newCondition("age", "equal", "12"), /needs a number/],
    [newCondition("age", "equal", ""), /^Enter a number \(e\.g\. 42 or 3\.5\) for age\.$/],
    [newCondition("hire_date", "greaterThan", ""), /^Enter a complete date for hire_date\.$/],
    [newCondition("employee_id", "equal", ""), undefined],
    [newCondition("age", "greaterThan", null), /null only works with equals/],
    [newCondition("age", "equal", null), undefined],
    [newCondition("hire_date", "lessThan", "2020-02-30"), /YYYY-MM-DD/],
    [newCondition("hire_date", "lessThan", "2020-02-29"), undefined],
    [newCondition("active", "equal", true), undefined],
    [newCondition("employee_id", "contains", "E0"), undefined],
    [newCondition("age", "isEmpty", undefined), undefined],
    [newCondition("", "equal", 1), /Choose a field/],
    [newCondition("ghost", "equal", 1), /Unknown field "ghost"/],
  ])("%j → %s", (cond, expected) => {
    const root = emptyRoot();
    const problems = draftProblems(addChild(root, root.id, cond), fields);
    if (expected === undefined) expect(problems.size).toBe(0);
    else expect(problems.get(cond.id)).toMatch(expected);
  });
});

describe("a value still typed in an \"is any of\" box", () => {
  it("counts as a value: no 'add at least one value' while it is typed", async () => {
    const { fromWire } = await import("./filter-tree.utils");
    const fields = [{ key: "department", type: "text" as const, primaryKey: false, nullable: true }];
    const root = fromWire({ and: [{ key: "department", operator: "anyOf", value: [] } as never] });
    const id = (root.children[0] as { id: string }).id;
    expect(draftProblems(root, fields as never).get(id)).toMatch(/Add at least one value/);
    expect(draftProblems(root, fields as never, { [id]: "Sa" }).size).toBe(0);
    expect(draftProblems(root, fields as never, { [id]: "   " }).get(id)).toMatch(/Add at least one value/);
  });
});
