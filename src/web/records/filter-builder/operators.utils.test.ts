import { describe, expect, it } from "vitest";
import { allOperators } from "../../../shared/filter";
import { operatorsFor } from "./operators.utils";

describe("operatorsFor", () => {
  it.each([
    ["number", allOperators, ["equal", "notEqual", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual", "isEmpty", "isNotEmpty"]],
    ["text", allOperators, ["equal", "notEqual", "contains", "notContains", "startsWith", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual", "isEmpty", "isNotEmpty"]],
    // What the service accepts on dates (the shared table): by value, and as text.
    ["date", allOperators, ["equal", "notEqual", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual", "contains", "notContains", "startsWith", "isEmpty", "isNotEmpty"]],
    ["boolean", allOperators, ["equal", "notEqual", "isEmpty", "isNotEmpty"]],
    ["json", allOperators, ["equal", "notEqual", "isEmpty", "isNotEmpty"]],
    // The hosted interface only has equal: that is all we offer, whatever the type.
    ["number", ["equal"], ["equal"]],
    ["json", ["equal"], ["equal"]],
    ["date", [], ["equal"]],
    [undefined, ["equal", "contains"], ["equal", "contains"]],
  ] as const)("%s with %j", (type, upstream, expected) => {
    expect(operatorsFor(type, upstream)).toEqual(expected);
  });
});
