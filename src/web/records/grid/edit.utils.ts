/**
 * One edit = one update whose filter is the primary key AND the old values, so a Record changed
 * elsewhere in between matches nothing and we report a conflict instead of overwriting.
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

/** One Field's edit: the value it had when the edit began, and the value typed. */
export interface FieldEdit<C = unknown> {
  col: C & { key: string };
  oldValue: RecordValue | undefined;
  newValue: RecordValue;
}

/**
 * One update for every edited Field of one Record (a record-panel Save is one change, one
 * version in its history): the primary key AND each Field's old value, except the Fields in
 * `checkedByReading` (json, compared by reading the Record first: a filter can only test a
 * json Field for null).
 */
export function buildEditUpdate(pkField: string, pkValue: RecordValue, edits: readonly FieldEdit[], checkedByReading: ReadonlySet<string> = new Set()): UpdateBody {
  return {
    values: edits.map((e) => ({ key: e.col.key, value: e.newValue })),
    filter: { and: [equalCond(pkField, pkValue), ...edits.filter((e) => !checkedByReading.has(e.col.key)).map((e) => equalCond(e.col.key, e.oldValue))] },
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
