/**
 * Deleting one Record from the row menu or the record panel (issue 24): the same confirmation
 * and undo as the selection bar's delete (deleteWithUndo), asked through deleteRequest.one().
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { RecordValue } from "../../../shared/records";
import { toastError } from "../../app/query-client";
import { ConfirmDialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { invalidateTableRecords } from "../records-update-mutation";
import { undoLast } from "../undo/use-undo";
import { deleteWithUndo } from "./delete-records";
import { deleteRequest, useDeleteRequest } from "./delete-request-store";
import { type DeleteRights, NO_DELETE_REASON } from "./DeleteSelected";

interface Props extends DeleteRights {
  onDeleted(pk: RecordValue): void;
}

export function DeleteOne({ db, table, pkField, canDelete, deniedReason, onDeleted }: Props) {
  const one = useDeleteRequest((s) => s.one);
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  useEffect(() => {
    if (one && !canDelete) {
      deleteRequest.doneOne();
      toast(deniedReason ?? NO_DELETE_REASON);
    }
  }, [one, canDelete, deniedReason]);
  if (!one || !canDelete) return null;
  const pk = one.pk;
  const run = async () => {
    setBusy(true);
    try {
      const rows = await deleteWithUndo(db, table, pkField, [pk]);
      toast(rows.length ? `Deleted Record ${String(pk)}` : `Record ${String(pk)} was already gone`, { kind: rows.length ? "success" : "info", action: rows.length ? undoLast() : undefined });
      if (rows.length) onDeleted(pk);
    } catch (e) {
      toastError(e, "Delete failed");
    } finally {
      setBusy(false);
      deleteRequest.doneOne();
      await invalidateTableRecords(qc, db, table);
    }
  };
  return (
    <ConfirmDialog title={`Delete Record ${String(pk)}?`} confirmLabel="Delete 1 Record" danger busy={busy} onConfirm={() => void run()} onCancel={() => deleteRequest.doneOne()}>
      <p>
        Record {String(pk)} of {table} will be deleted. Undo (Ctrl/⌘+Z) brings it back with its values, also after a reload.
      </p>
    </ConfirmDialog>
  );
}
