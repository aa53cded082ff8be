/**
 * Which operators apply to which Field type (contract E, issue 10 item 2): the one table the
 * service checks conditions against and the app offers in the filter builder and checks in the
 * JSON view, so the app never offers what the service refuses nor refuses what it accepts.
 *
 * Dates and date-times are compared by value (ordering operators) and, like text, can be searched
 * as text (contains "2020"), which a link or pasted JSON may use. json Fields can only be tested
 * for being empty or equal to null. Each list is in the order the builder shows it.
 */
import { type Operator, quoteName } from "./filter";
import type { FieldType } from "./records";

const ordering = ["greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual"] as const;
const search = ["contains", "notContains", "startsWith"] as const;
const empties = ["isEmpty", "isNotEmpty"] as const;

const textual: readonly Operator[] = ["equal", "notEqual", ...search, ...ordering, ...empties];
const temporal: readonly Operator[] = ["equal", "notEqual", ...ordering, ...search, ...empties];

export const operatorsByType: Readonly<Record<FieldType, readonly Operator[]>> = {
  text: textual,
  image: textual,
  attachment: textual,
  date: temporal,
  datetime: temporal,
  number: ["equal", "notEqual", ...ordering, ...empties],
  boolean: ["equal", "notEqual", ...empties],
  json: ["equal", "notEqual", ...empties],
};

/** Operators that take no value. */
export const valuelessOperators: ReadonlySet<string> = new Set(empties);

/** Why `operator` cannot test the Field (at `path` in the request), or undefined when it can. */
export function operatorProblem(path: string, field: { key: string; type: FieldType }, operator: string): string | undefined {
  const allowed = operatorsByType[field.type];
  if ((allowed as readonly string[]).includes(operator)) return undefined;
  return `${path}: operator ${operator} does not apply to Field ${quoteName(field.key)} (${field.type}); use one of: ${allowed.join(", ")}.`;
}
