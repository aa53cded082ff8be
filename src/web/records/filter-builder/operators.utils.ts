/**
 * Field type → the operators the builder offers: the shared table the service checks against
 * (src/shared/operators.ts), intersected with what the upstream offers (capabilities.operators:
 * only `equal` on the hosted interface).
 */
import { operatorsByType } from "../../../shared/operators";
import type { FieldType } from "../../../shared/records";

export const operatorLabels: Record<string, string> = {
  equal: "equals",
  anyOf: "is any of",
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
  const list: string[] = (type ? operatorsByType[type] : operatorsByType.text).filter((o) => offered.has(o));
  // "is any of" is a list of equals: offered wherever equal is (sent as an `or` of `equal`s to an
  // upstream without the anyOf extension), except on json Fields (compared only with NULL) and booleans (two values: equals says it).
  if (list.includes("equal") && type !== "json" && type !== "boolean") list.splice(1, 0, "anyOf");
  return list.length ? list : ["equal"];
}
