/**
 * Deleting Records from the app (issue 24 item 2): read them whole first (undo re-inserts them
 * with their values), delete by primary key with the count the user confirmed (the service
 * deletes nothing when it finds another count), then record the undo entry.
 */
import type { RecordRow, RecordValue } from "../../../shared/records";
import { pkFilter } from "../grid/edit.utils";
import { deleteRecords } from "../records-write-mutation";
import { queryRecords } from "../records-list-query";
import { undoActions } from "../undo/undo-store";

export async function deleteWithUndo(db: string, table: string, pkField: string, pks: readonly RecordValue[]): Promise<RecordRow[]> {
  const { items } = await queryRecords(db, table, { filter: { and: [pkFilter(pkField, pks)] }, limit: pks.length });
  if (!items.length) return [];
  const deleted = await deleteRecords(db, table, { and: [pkFilter(pkField, items.map((r) => r[pkField]))] }, items.length);
  undoActions.record({
    id: `${Date.now()}-delete`,
    label: `Delete ${deleted.toLocaleString("en-US")} Record${deleted === 1 ? "" : "s"}`,
    db,
    table,
    pkField,
    at: Date.now(),
    changes: [],
    rows: { kind: "delete", records: items },
  });
  return items;
}
