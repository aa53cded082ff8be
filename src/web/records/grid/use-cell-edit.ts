/**
 * Saving one cell: optimistic in the cache, one update filtered on primary key AND old value,
 * then either success (recorded for undo), a conflict (someone changed it first: we show their
 * value and keep ours unsent), or an error (rolled back, with the service's message).
 */
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import type { QueryResult, RecordValue } from "../../../shared/records";
import { toast } from "../../ui/toast";
import { recordKeys } from "../records-keys";
import { queryRecords } from "../records-list-query";
import { updateRecords } from "../records-update-mutation";
import { undoActions } from "../undo/undo-store";
import { buildEditUpdate, equalCond } from "./edit.utils";
import { type CellPos, conflictKey, gridActions, pkId, useGridStore } from "./grid-store";
import { byWhom, lastChangeOf } from "../../team/audit/last-change-get-query";
import { formatValue, sameValue } from "../values/values.utils";
import type { GridColumn } from "./columns.utils";

export interface CellEditVars {
  pk: RecordValue;
  col: GridColumn;
  oldValue: RecordValue | undefined;
  newValue: RecordValue;
  /** The cell edited and where the cursor went after: a conflict or failure brings it back. */
  at?: { from: CellPos; to: CellPos };
  /**
   * Sent from the record panel, which says a failure or conflict in the Field itself: no toast as
   * well (review 46b #6: it covered that Field, and a screen reader heard it twice).
   */
  inPlace?: boolean;
}

/**
 * Back to the cell whose save was refused, to edit again there, if the cursor is still where
 * the save moved it (Enter moved it down; a keyboard user would have had to go back up).
 */
function backTo(at: CellEditVars["at"]): void {
  const s = useGridStore.getState();
  if (!at || s.editing || s.active.row !== at.to.row || s.active.col !== at.to.col) return;
  gridActions.setActive(at.from);
}

function patchRow(data: QueryResult | undefined, pkField: string, pk: RecordValue, field: string, value: RecordValue | undefined) {
  if (!data) return data;
  return {
    ...data,
    items: data.items.map((r) => (pkId(r[pkField]) === pkId(pk) ? { ...r, [field]: value as RecordValue } : r)),
  };
}

const show = (col: GridColumn, v: RecordValue | undefined) => (v === undefined ? "(unknown)" : v === "" ? '""' : formatValue(col.field.type, v));

/** `joinKeys`: this table's Fields a join of the view matches on (an edit of one changes the joined columns). */
export function useCellEdit(db: string, table: string, pkField: string, queryKey: QueryKey, joinKeys: readonly string[] = []) {
  const qc = useQueryClient();
  return useMutation({
    meta: { handlesErrors: true },
    mutationFn: async ({ pk, col, oldValue, newValue }: CellEditVars) => {
      if (col.field.type === "json" && oldValue !== null && oldValue !== undefined) {
        // A filter can only test a json Field for null: compare by reading it first.
        const r = await queryRecords(db, table, { filter: { and: [equalCond(pkField, pk)] }, select: [pkField, col.key], limit: 1 });
        const current = r.items[0]?.[col.key];
        if (!sameValue(current, oldValue)) return { matched: 0, current };
        const out = await updateRecords(db, table, { values: [{ key: col.key, value: newValue }], filter: { and: [equalCond(pkField, pk)] } });
        return { matched: out.matched ?? 1, current: newValue };
      }
      const outcome = await updateRecords(db, table, buildEditUpdate(pkField, pk, col.key, oldValue, newValue));
      let matched = outcome.matched;
      let current: RecordValue | undefined;
      if (matched === undefined || matched === 0) {
        // The hosted interface does not say how many matched: read the Record back.
        const r = await queryRecords(db, table, { filter: { and: [equalCond(pkField, pk)] }, select: [pkField, col.key], limit: 1 });
        current = r.items[0]?.[col.key];
        if (matched === undefined) matched = sameValue(current, newValue) ? 1 : 0;
      }
      return { matched, current };
    },
    onMutate: async ({ pk, col, newValue }) => {
      // Marked until the answer comes: a slow or hung service must not make it look saved.
      gridActions.setSaving(conflictKey(pk, col.key), true);
      // A new attempt (Retry, Save again) supersedes the failure or conflict before it.
      gridActions.setConflict(conflictKey(pk, col.key), null);
      await qc.cancelQueries({ queryKey });
      const previous = qc.getQueryData<QueryResult>(queryKey);
      qc.setQueryData<QueryResult>(queryKey, (d) => patchRow(d, pkField, pk, col.key, newValue));
      return { previous };
    },
    onError: (err, { pk, col, oldValue, newValue, at, inPlace }, ctx) => {
      if (ctx?.previous) qc.setQueryData(queryKey, ctx.previous);
      // The cell keeps what was typed, marked, with Retry: nothing typed is lost to an outage.
      gridActions.setConflict(conflictKey(pk, col.key), { attempted: newValue, current: oldValue, failed: err.message });
      backTo(at);
      if (!inPlace) toast(`Not saved: ${col.key} of ${String(pk)}`, { kind: "error", detail: `${err.message} Your value is kept: press Retry in its cell, or Save again in the record panel.` });
    },
    onSuccess: ({ matched, current }, { pk, col, oldValue, newValue, at, inPlace }, ctx) => {
      const key = conflictKey(pk, col.key);
      if (matched === 0) {
        qc.setQueryData<QueryResult>(queryKey, (d) => patchRow(d ?? ctx?.previous, pkField, pk, col.key, current));
        gridActions.setConflict(key, { attempted: newValue, current });
        backTo(at);
        // Name who changed it, from the audit trail (a quick read; the message waits for it).
        void lastChangeOf(db, table, String(pk)).then((who) => {
          const by = byWhom(who);
          if (by && useGridStore.getState().conflicts.has(key)) gridActions.setConflict(key, { attempted: newValue, current, by });
          if (!inPlace)
            toast(`Conflict: ${col.key} of ${String(pk)} was changed${by || " elsewhere"}`, {
            kind: "error",
            detail: `It is now ${show(col, current)} (it was ${show(col, oldValue)} when you started). Your value ${show(col, newValue)} was not saved: it is kept in the cell, where Enter or F2 opens it again and Enter saves it over theirs.`,
            ttlMs: 20_000,
          });
        });
        return;
      }
      gridActions.setConflict(key, null);
      undoActions.record({
        id: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
        label: `Edit ${col.key} of ${String(pk)}`,
        db,
        table,
        pkField,
        at: Date.now(),
        changes: [{ pk, field: col.key, before: oldValue ?? null, after: newValue }],
        jsonFields: col.field.type === "json" ? [col.key] : undefined,
      });
    },
    // Stale, but not fetched again now: under a sort the edited row would jump away and "save and
    // move down" would land past the Record that was below. Refresh or re-sort shows the new order.
    onSettled: (_data, _err, { pk, col }) => {
      gridActions.setSaving(conflictKey(pk, col.key), false);
      // A join's key changed: the row's joined columns are another Record's now, fetched again at
      // once (they stayed those of the old match while the panel showed the new one).
      return qc.invalidateQueries({ queryKey: recordKeys.table(db, table), refetchType: joinKeys.includes(col.key) ? "active" : "none" });
    },
  });
}
