/**
 * An in-memory evaluation of query semantics (decisions §4), written independently of the SQL
 * compiler, for property tests to compare the service against. Tests keep filters shallow,
 * so plain recursion is fine here.
 */
import type { FilterNode, FilterValue } from "../../../../shared/filter";
import type { FieldType, RecordRow, RecordValue, SortUnit } from "../../../../shared/records";

export type Types = Record<string, FieldType>;

/** Compares strings by Unicode code point (what SQLite's BINARY collation does on UTF-8). */
export function compareCodePoints(a: string, b: string): number {
  const A = [...a];
  const B = [...b];
  for (let i = 0; i < Math.min(A.length, B.length); i++) {
    const d = A[i].codePointAt(0)! - B[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return A.length - B.length;
}

function compareValues(a: RecordValue, b: RecordValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return compareCodePoints(String(a), String(b));
}

function coerce(type: FieldType, v: FilterValue): RecordValue {
  if (type === "number") return typeof v === "number" ? v : Number(v);
  if (type === "boolean") return v === true || v === "true";
  if (type === "datetime") return new Date(String(v)).toISOString();
  return v;
}

const textual = (t: FieldType) => !["number", "boolean", "json"].includes(t);

export function matches(record: RecordRow, node: FilterNode, types: Types): boolean {
  if ("and" in node) return node.and.every((n) => matches(record, n, types));
  if ("or" in node) return node.or.some((n) => matches(record, n, types));
  const type = types[node.key];
  const v = record[node.key];
  const value = node.value ?? null;
  const lower = (s: unknown) => String(s).toLowerCase();
  switch (node.operator) {
    case "isEmpty":
      return v === null || (textual(type) && v === "");
    case "isNotEmpty":
      return !(v === null || (textual(type) && v === ""));
    case "contains":
      return v !== null && lower(v).includes(lower(value));
    case "notContains":
      return v === null || !lower(v).includes(lower(value));
    case "startsWith":
      return v !== null && lower(v).startsWith(lower(value));
  }
  if (value === null) return node.operator === "equal" ? v === null : v !== null;
  const c = coerce(type, value);
  switch (node.operator) {
    case "equal":
      return v !== null && compareValues(v, c) === 0;
    case "notEqual":
      return v === null || compareValues(v, c) !== 0;
    case "greaterThan":
      return v !== null && compareValues(v, c) > 0;
    case "greaterThanOrEqual":
      return v !== null && compareValues(v, c) >= 0;
    case "lessThan":
      return v !== null && compareValues(v, c) < 0;
    case "lessThanOrEqual":
      return v !== null && compareValues(v, c) <= 0;
  }
  throw new Error(`operator ${node.operator}`);
}

/** Sort units in order, then the primary key ascending; null first ascending. */
export function sortRecords(records: RecordRow[], sort: SortUnit[], primaryKey: string): RecordRow[] {
  const units = [...sort, { key: primaryKey, direction: "ascending" as const }];
  return [...records].sort((a, b) => {
    for (const u of units) {
      const d = compareValues(a[u.key], b[u.key]);
      if (d !== 0) return u.direction === "descending" ? -d : d;
    }
    return 0;
  });
}
