/**
 * The one plain-data filter tree (interface §2.3, decisions §4), used by the filter builder,
 * the URL, the proxy and the service alike.
 */

export const interfaceOperators = ["equal"] as const;

/** Operators the local service offers beyond the hosted interface (decisions §4: extension). */
export const extensionOperators = [
  "notEqual",
  "greaterThan",
  "greaterThanOrEqual",
  "lessThan",
  "lessThanOrEqual",
  "contains",
  "notContains",
  "startsWith",
  "isEmpty",
  "isNotEmpty",
] as const;

export const allOperators = [...interfaceOperators, ...extensionOperators] as const;
export type Operator = (typeof allOperators)[number];

/**
 * "is any of" (issue 24 item 6): `value` is an array; the local service reads it as an `or` of
 * `equal`s (filter-parse.ts) and the app sends that `or` itself to an upstream without it. Kept
 * out of `Operator` on purpose: nothing behind the parse ever sees it.
 */
export const anyOfOperator = "anyOf";
export type BuilderOperator = Operator | typeof anyOfOperator;

export type FilterValue = string | number | boolean | null;

/** The wire form of "is any of" (the local service's extension). */
export interface AnyOfCondition {
  key: string;
  operator: typeof anyOfOperator;
  value: FilterValue[];
}

export interface FilterCondition {
  key: string;
  operator: Operator | string;
  value?: FilterValue;
  isFixed?: boolean;
}

export type FilterGroup = { and: FilterNode[] } | { or: FilterNode[] };
export type FilterNode = FilterGroup | FilterCondition;

export function isGroup(node: FilterNode): node is FilterGroup {
  return typeof node === "object" && node !== null && ("and" in node || "or" in node);
}

/** The keys of a filter's conditions on a joined table's Fields ("departments.budget"), each once. */
export function joinedKeys(node: FilterNode | undefined): string[] {
  const out = new Set<string>();
  const walk = (n: FilterNode) => {
    if (isGroup(n)) for (const c of "and" in n ? n.and : n.or) walk(c);
    else if (typeof n.key === "string" && n.key.includes(".")) out.add(n.key);
  };
  if (node) walk(node);
  return [...out];
}

/** A client-sent name quoted for a message, clipped so a 100 kB key does not make a 100 kB error. */
export function quoteName(name: string, max = 80): string {
  return `"${name.length > max ? `${name.slice(0, max - 1)}…` : name}"`;
}
