/**
 * A bulk update that never changes more than the user confirmed. At review time the matching
 * Records are read (keys and the old values of the Fields being set): that is the confirmed set.
 * The update then carries it: the view's filter AND primary key in the confirmed set (only
 * `equal` conditions, so it works against the hosted interface too), in chunks below the
 * service's per-request condition cap. A Record that started matching in between is not touched;
 * one that stopped matching is not touched either (the view's filter is still there), and the
 * undo lists only the Records whose update matched, with the values they held just before it.
 * Past QUERY_LIMIT_MAX Records the set is not read: the count is checked again just before the
 * update, and a different count goes back to the user before anything changes.
 */
import type { FilterGroup } from "../../../shared/filter";
import { QUERY_LIMIT_MAX, type RecordRow, type RecordValue } from "../../../shared/records";
import { pkFilter, pkId } from "../grid/edit.utils";
import { sameValue } from "../values/values.utils";
import { queryRecords } from "../records-list-query";
import { updateRecords } from "../records-update-mutation";
import type { Change } from "../undo/undo.utils";
import { changesFromSnapshot } from "./bulk.utils";

/** Conditions per update request: the service evaluates at most 5,000 per request. */
export const CHUNK = 1000;

export type Values = { key: string; value: RecordValue }[];

export interface Confirmed {
  count: number;
  /** The matching Records at review time (null past QUERY_LIMIT_MAX: only the count is kept). */
  snapshot: RecordRow[] | null;
}

export async function readConfirmed(db: string, table: string, filter: FilterGroup, pkField: string, values: Values): Promise<Confirmed> {
  const { count } = await queryRecords(db, table, { filter, limit: 0 });
  if (count > QUERY_LIMIT_MAX) return { count, snapshot: null };
  const keys = [pkField, ...values.map((v) => v.key).filter((k) => k !== pkField)];
  const { items } = await queryRecords(db, table, { filter, select: keys, limit: QUERY_LIMIT_MAX });
  return { count: items.length, snapshot: items };
}

/** The view's filter narrowed to some primary keys. */
export function narrowed(filter: FilterGroup, pkField: string, pks: readonly RecordValue[]): FilterGroup {
  const parts = "and" in filter ? filter.and : [filter];
  return { and: [...parts.filter((p) => !("and" in p && p.and.length === 0)), pkFilter(pkField, pks)] };
}

export type ApplyOutcome =
  | { ok: true; matched: number; changes: Change[] | null }
  /** Past QUERY_LIMIT_MAX: the count moved since the review; nothing was changed. */
  | { ok: false; count: number };

export async function applyConfirmed(db: string, table: string, filter: FilterGroup, pkField: string, values: Values, confirmed: Confirmed): Promise<ApplyOutcome> {
  if (!confirmed.snapshot) {
    const { count } = await queryRecords(db, table, { filter, limit: 0 });
    if (count !== confirmed.count) return { ok: false, count };
    const out = await updateRecords(db, table, { values, filter });
    return { ok: true, matched: out.matched ?? count, changes: null };
  }
  const rows = confirmed.snapshot;
  const changed: RecordRow[] = [];
  const keys = [pkField, ...values.map((v) => v.key).filter((k) => k !== pkField)];
  let matched = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const pks = rows.slice(i, i + CHUNK).map((r) => r[pkField]);
    // The values the undo gives back are read again just before the update, not taken from the
    // review: someone may have changed a Record since (its undo wrote back the value from before
    // their change, silently undoing it too).
    const now = await queryRecords(db, table, { filter: pkFilter(pkField, pks), select: keys, limit: CHUNK });
    const byPk = new Map(now.items.map((r) => [pkId(r[pkField]), r]));
    const chunk = rows.slice(i, i + CHUNK).map((r) => byPk.get(pkId(r[pkField])) ?? r);
    const out = await updateRecords(db, table, { values, filter: narrowed(filter, pkField, pks) });
    if (out.matched === undefined || out.matched === chunk.length) {
      matched += out.matched ?? chunk.length;
      changed.push(...chunk);
      continue;
    }
    // Some stopped matching in between: the undo covers only those now holding the new values.
    matched += out.matched;
    const after = await queryRecords(db, table, { filter: pkFilter(pkField, pks), select: keys, limit: CHUNK });
    const updated = new Set(after.items.filter((r) => values.every((v) => sameValue(r[v.key] ?? null, v.value))).map((r) => pkId(r[pkField])));
    changed.push(...chunk.filter((r) => updated.has(pkId(r[pkField]))));
  }
  return { ok: true, matched, changes: changesFromSnapshot(changed, pkField, values) };
}
