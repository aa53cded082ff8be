/**
 * "Delete all N…" in the selection bar once every Record matching the view's filter is selected
 * (review 46b #9): a confirmation showing the count, progress while it works, then one Undo that
 * brings them all back. Refused with the reason past DELETE_MATCHING_MAX, or without the delete
 * extension or the right (as DeleteSelected is).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { FilterGroup } from "../../../shared/filter";
import { ConfirmDialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { runDelete } from "./run-delete";
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
  // The number the dialog asks to delete: the count when it opened, until the person takes the
  // new one (review 48b #2: a live change made it read 71 where they had read 70, unsaid).
  const [asked, setAsked] = useState(count);
  const [was, setWas] = useState<number | null>(null);
  const qc = useQueryClient();
  const tooMany = count > DELETE_MATCHING_MAX ? `At most ${fmtInt(DELETE_MATCHING_MAX)} Records are deleted at once by a filter (each is kept for Undo): narrow the filter and delete in parts.` : undefined;
  const why = !canDelete ? (deniedReason ?? NO_DELETE_REASON) : joined ? "Records are deleted by a filter only in a view without a join: remove the join, then select them again." : tooMany;
  const filtered = !!filter && ("and" in filter ? filter.and : filter.or).length > 0;
  const records = (n: number) => `Record${n === 1 ? "" : "s"}`;
  const changed = confirming && done === null && count !== asked;
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
    await runDelete(qc, db, table, () => deleteMatchingWithUndo(db, table, pkField, filter ?? { and: [] }, asked, setDone), () => {
      setDone(null);
      setConfirming(false);
    });
  };
  return (
    <>
      <button
        type="button"
        className="btn btn-sm btn-danger"
        onClick={() => {
          setAsked(count);
          setWas(null);
          setConfirming(true);
        }}
      >
        {label}
      </button>
      {confirming && (
        <ConfirmDialog
          title={`Delete all ${fmtInt(asked)} ${records(asked)} matching this filter?`}
          confirmLabel={changed ? `Show the ${fmtInt(count)} matching now` : `Delete ${fmtInt(asked)} ${records(asked)}`}
          danger
          busy={done !== null}
          onConfirm={() => {
            if (!changed) return void run();
            // Taken on purpose, not by a click meant for the number read before.
            setWas(asked);
            setAsked(count);
          }}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {fmtInt(asked)} {records(asked)} of {table} {filtered ? "matching this filter" : "(no filter: every Record of the table)"} will be deleted; if another number matches by then, nothing is. Undo (Ctrl/⌘+Z) brings{" "}
            {asked === 1 ? "it" : "them"} back with {asked === 1 ? "its" : "their"} values, also after a reload.
          </p>
          {changed && (
            <p role="alert" className="error-text">
              Changed meanwhile: the filter now matches {fmtInt(count)} {records(count)}, not the {fmtInt(asked)} shown when this opened (a Record was added, changed or deleted elsewhere). Nothing is deleted until you confirm a number: look at the new one first, or Cancel to look at the Records.
            </p>
          )}
          {!changed && was !== null && <p role="status">The number changed while this was open: it was {fmtInt(was)}.</p>}
          {done !== null && (
            <p role="status">
              Deleting… {fmtInt(done)} of {fmtInt(asked)} done.
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
