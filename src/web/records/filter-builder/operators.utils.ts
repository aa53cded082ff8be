/**
 * Field type → operators that make sense for it, intersected with what the upstream offers
 * (capabilities.operators: only `equal` on the hosted interface). One table, like Supabase's.
 */
import type { FieldType } from "../../../shared/records";

const comparable = ["equal", "notEqual", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual"];
const empties = ["isEmpty", "isNotEmpty"];
const textual = ["equal", "notEqual", "contains", "notContains", "startsWith"];

export const operatorsByType: Record<FieldType, string[]> = {
  text: [...textual, ...empties],
  number: [...comparable, ...empties],
  date: [...comparable, ...empties],
  datetime: [...comparable, ...empties],
  boolean: ["equal", "notEqual", ...empties],
  // The service can only test a json Field for being empty.
  json: [...empties],
  image: [...textual, ...empties],
  attachment: [...textual, ...empties],
};

export const operatorLabels: Record<string, string> = {
  equal: "equals",
  notEqual: "does not equal",
  greaterThan: ">",
  greaterThanOrEqual: "≥",
  lessThan: "<",
  lessThanOrEqual: "≤",
  contains: "contains",
  notContains: "does not contain",
  startsWith: "starts with",
  isEmpty: "is empty",
  isNotEmpty: "is not empty",
};

export function operatorsFor(type: FieldType | undefined, upstream: readonly string[]): string[] {
  const offered = new Set(upstream.length ? upstream : ["equal"]);
  const list = (type ? operatorsByType[type] : operatorsByType.text).filter((o) => offered.has(o));
  return list.length ? list : ["equal"];
}
