import { describe, expect, it } from "vitest";
import { allOperators } from "./filter";
import { operatorProblem, operatorsByType, valuelessOperators } from "./operators";

describe("the shared operator table", () => {
  it("names only known operators, each once per type, and tests every type for being empty", () => {
    for (const [type, ops] of Object.entries(operatorsByType)) {
      expect(new Set(ops).size, type).toBe(ops.length);
      for (const op of ops) expect(allOperators).toContain(op);
      for (const op of valuelessOperators) expect(ops, type).toContain(op);
    }
  });

  it.each([
    ["hire_date", "date", "contains", undefined],
    ["hire_date", "date", "greaterThan", undefined],
    ["age", "number", "startsWith", /operator startsWith does not apply to Field "age" \(number\)/],
    ["ok", "boolean", "lessThan", /use one of: equal, notEqual, isEmpty, isNotEmpty\.$/],
    ["specs", "json", "contains", /does not apply/],
  ] as const)("%s (%s) %s", (key, type, op, expected) => {
    const problem = operatorProblem("filter.and[0]", { key, type }, op);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});
