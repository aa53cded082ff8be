import { describe, expect, it } from "vitest";
import { allOperators } from "../../../shared/filter";
import { operatorsFor } from "./operators.utils";

describe("operatorsFor", () => {
  it.each([
    ["number", allOperators, ["equal", "anyOf", "notEqual", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual", "isEmpty", "isNotEmpty"]],
    ["text", allOperators, ["equal", "anyOf", "notEqual", "contains", "notContains", "startsWith", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual", "isEmpty", "isNotEmpty"]],
    // What the service accepts on dates (the shared table): by value, and as text.
    ["date", allOperators, ["equal", "anyOf", "notEqual", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual", "contains", "notContains", "startsWith", "isEmpty", "isNotEmpty"]],
    ["boolean", allOperators, ["equal", "notEqual", "isEmpty", "isNotEmpty"]],
    ["json", allOperators, ["equal", "notEqual", "isEmpty", "isNotEmpty"]],
    // The hosted interface only has equal: that, and "is any of" sent as an `or` of equals.
    ["number", ["equal"], ["equal", "anyOf"]],
    ["json", ["equal"], ["equal"]],
    ["date", [], ["equal", "anyOf"]],
    [undefined, ["equal", "contains"], ["equal", "anyOf", "contains"]],
  ] as const)("%s with %j", (type, upstream, expected) => {
    expect(operatorsFor(type, upstream)).toEqual(expected);
  });
});
