/**
 * "Delete all N…" in the selection bar once every Record matching the view's filter is selected
 * (review 46b #9): a confirmation showing the count, progress while it works, then one Undo that
 * brings them all back. Refused with the reason past DELETE_MATCHING_MAX, or without the delete
 * extension or the right (as DeleteSelected is).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { FilterGroup } from "../../../shared/filter";
import { toastError } from "../../app/query-client";
import { ConfirmDialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { gridActions } from "../grid/grid-store";
import { invalidateTableRecords } from "../records-update-mutation";
import { undoLast } from "../undo/use-undo";
import { fmtInt } from "../values/values.utils";
import { DELETE_MATCHING_MAX, deleteMatchingWithUndo } from "./delete-records";
import { type DeleteRights, NO_DELETE_REASON } from "./DeleteSelected";

interface Props extends DeleteRights {
  filter: FilterGroup | undefined;
  count: number;
  /** The view joins another table: its filter may name the other's Fields, which a delete cannot. */
  joined?: boolean;
}

export function DeleteMatching({ db, table, pkField, canDelete, deniedReason, filter, count, joined }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<number | null>(null);
  const qc = useQueryClient();
  const tooMany = count > DELETE_MATCHING_MAX ? `At most ${fmtInt(DELETE_MATCHING_MAX)} Records are deleted at once by a filter (each is kept for Undo): narrow the filter and delete in parts.` : undefined;
  const why = !canDelete ? (deniedReason ?? NO_DELETE_REASON) : joined ? "Records are deleted by a filter only in a view without a join: remove the join, then select them again." : tooMany;
  const filtered = !!filter && ("and" in filter ? filter.and : filter.or).length > 0;
  const noun = `Record${count === 1 ? "" : "s"}`;
  const label = `Delete all ${fmtInt(count)}…`;
  if (why) {
    return (
      <button type="button" className="btn btn-sm" aria-disabled="true" title={why} aria-description={why} onClick={() => toast(why)}>
        {label}
      </button>
    );
  }
  const run = async () => {
    setDone(0);
    try {
      const rows = await deleteMatchingWithUndo(db, table, pkField, filter ?? { and: [] }, count, setDone);
      gridActions.clearSelection();
      toast(`Deleted ${fmtInt(rows.length)} ${rows.length === 1 ? "Record" : "Records"}`, { kind: "success", action: rows.length ? undoLast() : undefined });
    } catch (e) {
      toastError(e, "Delete failed");
    } finally {
      setDone(null);
      setConfirming(false);
      await invalidateTableRecords(qc, db, table);
    }
  };
  return (
    <>
      <button type="button" className="btn btn-sm btn-danger" onClick={() => setConfirming(true)}>
        {label}
      </button>
      {confirming && (
        <ConfirmDialog
          title={`Delete all ${fmtInt(count)} ${noun} matching this filter?`}
          confirmLabel={`Delete ${fmtInt(count)} ${noun}`}
          danger
          busy={done !== null}
          onConfirm={() => void run()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {fmtInt(count)} {noun} of {table} {filtered ? "matching this filter" : "(no filter: every Record of the table)"} will be deleted; if another number matches by then, nothing is. Undo (Ctrl/⌘+Z) brings{" "}
            {count === 1 ? "it" : "them"} back with {count === 1 ? "its" : "their"} values, also after a reload.
          </p>
          {done !== null && (
            <p role="status">
              Deleting… {fmtInt(done)} of {fmtInt(count)} done.
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
