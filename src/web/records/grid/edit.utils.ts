/**
 * One cell edit = one update whose filter is the primary key AND the old value, so a Record
 * changed elsewhere in between matches nothing and we report a conflict instead of overwriting.
 */
import type { FilterCondition, FilterValue } from "../../../shared/filter";
import type { RecordValue, UpdateBody } from "../../../shared/records";

/** Filter values are scalars; a json value is compared by its JSON text. */
export function filterValueOf(v: RecordValue | undefined): FilterValue {
  if (v === undefined || v === null) return null;
  if (typeof v === "object") return JSON.stringify(v);
  return v;
}

export function equalCond(key: string, value: RecordValue | undefined): FilterCondition {
  return { key, operator: "equal", value: filterValueOf(value) };
}

export function buildEditUpdate(
  pkField: string,
  pkValue: RecordValue,
  field: string,
  oldValue: RecordValue | undefined,
  newValue: RecordValue,
): UpdateBody {
  return {
    values: [{ key: field, value: newValue }],
    filter: { and: [equalCond(pkField, pkValue), equalCond(field, oldValue)] },
  };
}

/** Filter for a set of Records by primary key. */
export function pkFilter(pkField: string, pks: readonly RecordValue[]): { or: FilterCondition[] } {
  return { or: pks.map((pk) => equalCond(pkField, pk)) };
}

export const pkId = (pk: RecordValue | undefined) => JSON.stringify(pk ?? null);

/** x-matched-count from the local service; undefined when the upstream does not send it. */
export function matchedCount(headers: Headers): number | undefined {
  const h = headers.get("x-matched-count");
  if (h === null) return undefined;
  const n = Number(h);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}
