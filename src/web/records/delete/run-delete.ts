/**
 * What a delete from the selection bar does around the delete itself (one page's selection, or
 * everything a filter matches): the selection cleared, the count said with Undo, a failure said,
 * and the table's pages and counts read again either way.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { RecordRow } from "../../../shared/records";
import { toastError } from "../../app/query-client";
import { toast } from "../../ui/toast";
import { gridActions } from "../grid/grid-store";
import { invalidateTableRecords } from "../records-update-mutation";
import { undoLast } from "../undo/use-undo";
import { fmtInt } from "../values/values.utils";

/** `settle`: the dialog's own end (busy off, closed), before the table is read again. */
export async function runDelete(qc: QueryClient, db: string, table: string, work: () => Promise<RecordRow[]>, settle: () => void): Promise<void> {
  try {
    const rows = await work();
    gridActions.clearSelection();
    toast(`Deleted ${fmtInt(rows.length)} Record${rows.length === 1 ? "" : "s"}`, { kind: "success", action: rows.length ? undoLast() : undefined });
  } catch (e) {
    toastError(e, "Delete failed");
  } finally {
    settle();
    await invalidateTableRecords(qc, db, table);
  }
}
