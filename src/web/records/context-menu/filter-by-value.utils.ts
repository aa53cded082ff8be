/**
 * "Filter by this value" / "Exclude this value": the current filter AND one more condition.
 * A top-level `and` gets the condition appended (fixed conditions stay as they are); an `or`
 * is kept whole inside a new `and`.
 */
import type { FilterCondition, FilterGroup, Operator } from "../../../shared/filter";
import type { FieldInfo, RecordValue } from "../../../shared/records";
import { filterValueOf } from "../grid/edit.utils";

export function addCondition(filter: FilterGroup | undefined, cond: FilterCondition): FilterGroup {
  if (!filter) return { and: [cond] };
  if ("and" in filter) return { and: [...filter.and, cond] };
  return { and: [filter, cond] };
}

/**
 * The condition that keeps (or drops) Records whose Field holds this value, with the operators
 * the upstream offers; undefined when it cannot be said (a json value, or `notEqual` missing).
 */
export function valueCondition(field: FieldInfo, value: RecordValue | undefined, exclude: boolean, operators: readonly Operator[]): FilterCondition | undefined {
  if (field.type === "json" && value !== null) return undefined;
  if (value === undefined) return undefined;
  const op: Operator = exclude ? "notEqual" : "equal";
  if (!operators.includes(op)) return undefined;
  return { key: field.key, operator: op, value: filterValueOf(value) };
}
