/**
 * Saving one cell, or the Fields of one record-panel Save: optimistic in the cache, one update
 * filtered on primary key AND old values, then either success (recorded for undo), a conflict
 * (someone changed it first: we show their value and keep ours unsent), or an error (rolled
 * back, with the service's message).
 */
import { type QueryClient, type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import type { QueryResult, RecordRow, RecordValue } from "../../../shared/records";
import { toast } from "../../ui/toast";
import { recordKeys } from "../records-keys";
import { queryRecords } from "../records-list-query";
import { updateRecords } from "../records-update-mutation";
import { undoActions } from "../undo/undo-store";
import { undoLast } from "../undo/use-undo";
import { buildEditUpdate, equalCond, type FieldEdit } from "./edit.utils";
import { type CellPos, conflictKey, gridActions, pkId, useGridStore } from "./grid-store";
import { byWhom, lastChangeOf } from "../../team/audit/last-change-get-query";
import { formatValue, sameValue } from "../values/values.utils";
import type { GridColumn } from "./columns.utils";

export interface CellEditVars {
  pk: RecordValue;
  /** One cell's edit, or every Field a record-panel Save changed: one update, one undo step. */
  edits: FieldEdit<GridColumn>[];
  /** The cell edited and where the cursor went after: a conflict or failure brings it back. */
  at?: { from: CellPos; to: CellPos };
  /**
   * Sent from the record panel, which says a failure or conflict in the Field itself: no toast as
   * well (review 46b #6: it covered that Field, and a screen reader heard it twice).
   */
  inPlace?: boolean;
}

interface EditOutcome {
  saved: FieldEdit<GridColumn>[];
  conflicts: { edit: FieldEdit<GridColumn>; current: RecordValue | undefined }[];
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

/**
 * The same values into the Record's own queries (a panel opened on a Record not on the page reads
 * it alone: review 49b #1, its Fields went back to the old values after a save, and the next
 * edit then "conflicted" with its own author). Returns what they held, to put back on failure.
 */
function patchRecordQueries(qc: QueryClient, db: string, table: string, pkField: string, pk: RecordValue, values: Record<string, RecordValue | undefined>) {
  const was: [QueryKey, RecordRow][] = [];
  for (const [key, data] of qc.getQueriesData<RecordRow | null>({ queryKey: recordKeys.table(db, table) })) {
    if (key[3] !== "record" || !data || pkId(data[pkField]) !== pkId(pk)) continue;
    was.push([key, data]);
    qc.setQueryData(key, { ...data, ...(values as Record<string, RecordValue>) });
  }
  return was;
}

function patchRow(data: QueryResult | undefined, pkField: string, pk: RecordValue, values: Record<string, RecordValue | undefined>) {
  if (!data) return data;
  return {
    ...data,
    items: data.items.map((r) => (pkId(r[pkField]) === pkId(pk) ? { ...r, ...(values as Record<string, RecordValue>) } : r)),
  };
}

const valuesOf = (pairs: [string, RecordValue | undefined][]) => Object.fromEntries(pairs);
const names = (edits: readonly FieldEdit<GridColumn>[]) => edits.map((e) => e.col.key).join(", ");

const show = (col: GridColumn, v: RecordValue | undefined) => (v === undefined ? "(unknown)" : v === "" ? '""' : formatValue(col.field.type, v));

/** `joinKeys`: this table's Fields a join of the view matches on (an edit of one changes the joined columns). */
export function useCellEdit(db: string, table: string, pkField: string, queryKey: QueryKey, joinKeys: readonly string[] = []) {
  const qc = useQueryClient();
  return useMutation({
    meta: { handlesErrors: true },
    mutationFn: async ({ pk, edits }: CellEditVars): Promise<EditOutcome> => {
      const read = async (keys: string[]) =>
        (await queryRecords(db, table, { filter: { and: [equalCond(pkField, pk)] }, select: [pkField, ...keys], limit: 1 })).items[0] as RecordRow | undefined;
      const conflicts: EditOutcome["conflicts"] = [];
      // A json Field's old value cannot be in the filter: it is compared by reading it first.
      const byReading = edits.filter((e) => e.col.field.type === "json" && e.oldValue !== null && e.oldValue !== undefined);
      let pending = edits;
      if (byReading.length) {
        const current = await read(byReading.map((e) => e.col.key));
        for (const e of byReading) if (!sameValue(current?.[e.col.key], e.oldValue)) conflicts.push({ edit: e, current: current?.[e.col.key] });
        pending = edits.filter((e) => !conflicts.some((c) => c.edit === e));
      }
      const checked = new Set(byReading.map((e) => e.col.key));
      // All together first; when that matches nothing, the Fields nobody changed meanwhile are
      // sent once more alone (each Field is its own conflict, as when saved one by one).
      for (let round = 0; round < 2 && pending.length; round++) {
        const { matched } = await updateRecords(db, table, buildEditUpdate(pkField, pk, pending, checked));
        if (matched !== undefined && matched > 0) return { saved: pending, conflicts };
        // Nothing matched, or the hosted interface does not say how many: read the Record back.
        const current = await read(pending.map((e) => e.col.key));
        if (matched === undefined && current && pending.every((e) => sameValue(current[e.col.key], e.newValue))) return { saved: pending, conflicts };
        const moved = pending.filter((e) => !current || !sameValue(current[e.col.key], e.oldValue) || round === 1);
        // Nothing moved yet nothing matched (a value the filter cannot match exactly): conflicts all.
        const refused = moved.length ? moved : pending;
        conflicts.push(...refused.map((e) => ({ edit: e, current: current?.[e.col.key] })));
        pending = pending.filter((e) => !refused.includes(e));
      }
      return { saved: [], conflicts };
    },
    onMutate: async ({ pk, edits }) => {
      for (const { col } of edits) {
        // Marked until the answer comes: a slow or hung service must not make it look saved.
        gridActions.setSaving(conflictKey(pk, col.key), true);
        // A new attempt (Retry, Save again) supersedes the failure or conflict before it.
        gridActions.setConflict(conflictKey(pk, col.key), null);
      }
      // A read of the page or of the Record in flight would put the old values back over the new.
      await Promise.all([qc.cancelQueries({ queryKey }), qc.cancelQueries({ queryKey: recordKeys.table(db, table), predicate: (q) => q.queryKey[3] === "record" })]);
      const previous = qc.getQueryData<QueryResult>(queryKey);
      const values = valuesOf(edits.map((e) => [e.col.key, e.newValue]));
      qc.setQueryData<QueryResult>(queryKey, (d) => patchRow(d, pkField, pk, values));
      return { previous, records: patchRecordQueries(qc, db, table, pkField, pk, values) };
    },
    onError: (err, { pk, edits, at, inPlace }, ctx) => {
      if (ctx?.previous) qc.setQueryData(queryKey, ctx.previous);
      for (const [key, data] of ctx?.records ?? []) qc.setQueryData(key, data);
      // The cell keeps what was typed, marked, with Retry: nothing typed is lost to an outage.
      for (const { col, oldValue, newValue } of edits) gridActions.setConflict(conflictKey(pk, col.key), { attempted: newValue, current: oldValue, failed: err.message });
      backTo(at);
      if (!inPlace) toast(`Not saved: ${names(edits)} of ${String(pk)}`, { kind: "error", detail: `${err.message} Your value is kept: press Retry in its cell, or Save again in the record panel.` });
    },
    onSuccess: ({ saved, conflicts }, { pk, at, inPlace }, ctx) => {
      for (const { col } of saved) gridActions.setConflict(conflictKey(pk, col.key), null);
      if (saved.length)
        undoActions.record({
          id: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
          label: `Edit ${names(saved)} of ${String(pk)}`,
          db,
          table,
          pkField,
          at: Date.now(),
          changes: saved.map(({ col, oldValue, newValue }) => ({ pk, field: col.key, before: oldValue ?? null, after: newValue })),
          jsonFields: saved.some((e) => e.col.field.type === "json") ? saved.filter((e) => e.col.field.type === "json").map((e) => e.col.key) : undefined,
        });
      // The record panel's Save says it saved (review 55b #8: only its buttons went grey); a cell
      // shows its new value where it was typed.
      if (inPlace && saved.length) toast(`Saved ${names(saved)} of ${String(pk)}`, { kind: "success", action: undoLast() });
      if (!conflicts.length) return;
      const now = valuesOf(conflicts.map((c) => [c.edit.col.key, c.current]));
      qc.setQueryData<QueryResult>(queryKey, (d) => patchRow(d ?? ctx?.previous, pkField, pk, now));
      patchRecordQueries(qc, db, table, pkField, pk, now);
      for (const { edit, current } of conflicts) gridActions.setConflict(conflictKey(pk, edit.col.key), { attempted: edit.newValue, current });
      backTo(at);
      // Name who changed it, from the audit trail (a quick read; the message waits for it).
      void lastChangeOf(db, table, String(pk), conflicts.map((c) => c.edit.col.key)).then((who) => {
        const by = byWhom(who);
        for (const { edit, current } of conflicts) {
          const key = conflictKey(pk, edit.col.key);
          if (by && useGridStore.getState().conflicts.has(key)) gridActions.setConflict(key, { attempted: edit.newValue, current, by });
        }
        if (inPlace) return;
        const [{ edit, current }] = conflicts;
        toast(`Conflict: ${names(conflicts.map((c) => c.edit))} of ${String(pk)} was changed${by || " elsewhere"}`, {
          kind: "error",
          detail: `It is now ${show(edit.col, current)} (it was ${show(edit.col, edit.oldValue)} when you started). Your value ${show(edit.col, edit.newValue)} was not saved: it is kept in the cell, where Enter or F2 opens it again and Enter saves it over theirs.`,
          ttlMs: 20_000,
        });
      });
    },
    // Stale, but not fetched again now: under a sort the edited row would jump away and "save and
    // move down" would land past the Record that was below. Refresh or re-sort shows the new order.
    onSettled: (_data, _err, { pk, edits }) => {
      for (const { col } of edits) gridActions.setSaving(conflictKey(pk, col.key), false);
      // A join's key changed: the row's joined columns are another Record's now, fetched again at
      // once (they stayed those of the old match while the panel showed the new one).
      return qc.invalidateQueries({ queryKey: recordKeys.table(db, table), refetchType: edits.some((e) => joinKeys.includes(e.col.key)) ? "active" : "none" });
    },
  });
}
