/**
 * "Delete N selected…" in the selection bar: a confirmation showing the count, then
 * deleteWithUndo. Against an upstream without the delete extension the button stays, disabled
 * for clicks, with a tooltip saying why (issue 24 item 3).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ConfirmDialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { useGridStore } from "../grid/grid-store";
import { runDelete } from "./run-delete";
import { fmtInt } from "../values/values.utils";
import { deleteWithUndo } from "./delete-records";
import { useDeleteRequest } from "./delete-request-store";

export const NO_DELETE_REASON = "This upstream has no delete extension: Records cannot be deleted from Baseboard here.";

/** Where Records are deleted, and whether this person may (the selection bar's and the panel's). */
export interface DeleteRights {
  db: string;
  table: string;
  pkField: string;
  canDelete: boolean;
  /** Why not, when the person's role does not allow it (the upstream does). */
  deniedReason?: string;
}

export function DeleteSelected({ db, table, pkField, canDelete, deniedReason }: DeleteRights) {
  // The person's role or grant, or else the upstream lacking the extension.
  const why = deniedReason ?? NO_DELETE_REASON;
  const selected = useGridStore((s) => s.selected);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  const asked = useDeleteRequest((s) => s.asked);
  const seen = useRef(asked);
  useEffect(() => {
    if (asked === seen.current) return;
    seen.current = asked;
    if (canDelete) setConfirming(true);
    else toast(why);
  }, [asked, canDelete, why]);
  const n = selected.size;
  const noun = `Record${n === 1 ? "" : "s"}`;
  if (!n || !pkField) return null;
  if (!canDelete) {
    return (
      <button type="button" className="btn btn-sm" aria-disabled="true" title={why} aria-description={why} onClick={() => toast(why)}>
        Delete {fmtInt(n)} selected…
      </button>
    );
  }
  const run = async () => {
    setBusy(true);
    await runDelete(qc, db, table, () => deleteWithUndo(db, table, pkField, [...selected.values()]), () => {
      setBusy(false);
      setConfirming(false);
    });
  };
  return (
    <>
      <button type="button" className="btn btn-sm btn-danger" onClick={() => setConfirming(true)}>
        Delete {fmtInt(n)} selected…
      </button>
      {confirming && (
        <ConfirmDialog title={`Delete ${fmtInt(n)} ${noun}?`} confirmLabel={`Delete ${fmtInt(n)} ${noun}`} danger busy={busy} onConfirm={() => void run()} onCancel={() => setConfirming(false)}>
          <p>
            {fmtInt(n)} {noun} of {table} will be deleted. Undo (Ctrl/⌘+Z) brings {n === 1 ? "it" : "them"} back with {n === 1 ? "its" : "their"} values, also after a reload.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
