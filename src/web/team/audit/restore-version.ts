/**
 * "Restore this version": one update, filtered on the primary key AND the values the person saw
 * (the app's conflict rule), that sets every Field changed since back. Recorded in the trail like
 * any update (it goes through the proxy); undoable like a cell edit.
 */
import type { FieldType, RecordRow, RecordValue } from "../../../shared/records";
import { equalCond } from "../../records/grid/edit.utils";
import { queryRecords } from "../../records/records-list-query";
import { updateRecords } from "../../records/records-update-mutation";
import { undoActions } from "../../records/undo/undo-store";
import { sameValue } from "../../records/values/values.utils";
import { restoreValues } from "./record-history.utils";
import { UNDO_HEADER } from "../../../shared/record-writes";

export type RestoreOutcome = { kind: "restored"; fields: string[] } | { kind: "nothing" } | { kind: "conflict" };

export async function restoreVersion(a: {
  db: string;
  table: string;
  pkField: string;
  row: RecordRow;
  target: Record<string, RecordValue>;
  types: Record<string, FieldType>;
  label: string;
}): Promise<RestoreOutcome> {
  const pk = a.row[a.pkField];
  const sets = restoreValues(a.row, a.target, sameValue);
  if (!sets.length) return { kind: "nothing" };
  // A json Field can only be tested for null by a filter: its current value is read and compared.
  const json = sets.filter((s) => a.types[s.field] === "json" && s.from !== null);
  if (json.length) {
    const r = await queryRecords(a.db, a.table, { filter: { and: [equalCond(a.pkField, pk)] }, select: [a.pkField, ...json.map((s) => s.field)], limit: 1 });
    const now = r.items[0];
    if (!now || json.some((s) => !sameValue(now[s.field], s.from))) return { kind: "conflict" };
  }
  const filter = { and: [equalCond(a.pkField, pk), ...sets.filter((s) => !json.includes(s)).map((s) => equalCond(s.field, s.from))] };
  // Marked as what it is, for the activity log ("restore: …"; review 47b #2 read it as a plain update).
  const out = await updateRecords(a.db, a.table, { values: sets.map((s) => ({ key: s.field, value: s.to })), filter }, { [UNDO_HEADER]: encodeURIComponent(`restore: ${a.label}`) });
  let matched = out.matched;
  if (matched === undefined) {
    // The hosted interface does not say how many matched: read the Record back.
    const r = await queryRecords(a.db, a.table, { filter: { and: [equalCond(a.pkField, pk)] }, select: [a.pkField, ...sets.map((s) => s.field)], limit: 1 });
    matched = r.items[0] && sets.every((s) => sameValue(r.items[0][s.field], s.to)) ? 1 : 0;
  }
  if (matched === 0) return { kind: "conflict" };
  undoActions.record({
    id: `${Date.now()}-restore`,
    label: a.label,
    db: a.db,
    table: a.table,
    pkField: a.pkField,
    at: Date.now(),
    changes: sets.map((s) => ({ pk, field: s.field, before: s.from, after: s.to })),
    jsonFields: json.length ? json.map((s) => s.field) : undefined,
  });
  return { kind: "restored", fields: sets.map((s) => s.field) };
}
