/**
 * After a Record was added (the form or the blank row): the undo step and the toast. Undoing an
 * add deletes the Record; where this person may not delete Records (`noDelete`, why not), no
 * undo step is kept, since it could only be refused and would stand before every earlier step
 * (a new user's check: an editor's Ctrl+Z was refused again and again), and the toast says so.
 */
import type { RecordRow } from "../../../shared/records";
import { toast } from "../../ui/toast";
import { undoActions } from "../undo/undo-store";
import { undoLast } from "../undo/use-undo";

export function recordAdded(o: { db: string; table: string; pkField: string; record: RecordRow; noDelete: string | undefined }): void {
  const key = String(o.record[o.pkField]);
  if (o.noDelete !== undefined) {
    toast(`Added Record ${key}`, { kind: "success", detail: `It cannot be undone here (that would delete it): ${o.noDelete}` });
    return;
  }
  undoActions.record({ id: `${Date.now()}-insert`, label: `Add Record ${key}`, db: o.db, table: o.table, pkField: o.pkField, at: Date.now(), changes: [], rows: { kind: "insert", records: [o.record] } });
  toast(`Added Record ${key}`, { kind: "success", action: undoLast() });
}
