/**
 * The Record being edited in the grid left the page under its editor (someone else deleted it,
 * or changed it so that it no longer matches): said in a dialog that takes the focus, so the
 * keys still being typed land in it (a read-only copy of what was typed) and not in the Record
 * that took the row's place. With a toast, they started an edit there and Enter saved it
 * (review 36b #1).
 */
import { Modal } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { formatWhen } from "../../team/audit/format-when";

export interface EditLost {
  /** The Record's key as a person reads it. */
  record: string;
  field: string;
  /** What was typed into the cell when it went (not saved). */
  typed: string;
  /** Who took it away, when the live stream said. */
  by?: { name: string; email: string; at: string; deleted?: true };
}

export function EditLostDialog({ lost, onClose, fallbackFocus }: { lost: EditLost; onClose(): void; fallbackFocus?(): HTMLElement | null | undefined }) {
  const { record, field, typed, by } = lost;
  // "Another client of the service" (a change made outside Baseboard) has no address to show.
  const who = by && (by.email.includes("@") ? `${by.name} (${by.email})` : by.name);
  const why = by
    ? `${who} ${by.deleted ? "deleted it" : "changed it so that it no longer belongs on this page"} at ${formatWhen(by.at)}`
    : "Someone else deleted it, or changed it so that it no longer belongs on this page,";
  return (
    <Modal
      title={`Record ${record} is no longer here`}
      onClose={onClose}
      className="dialog-confirm"
      fallbackFocus={fallbackFocus}
      footer={
        <>
          <button
            type="button"
            className="btn"
            onClick={() => navigator.clipboard.writeText(typed).then(() => toast("Copied what you typed", { kind: "success" }), () => toast("Copy it by hand: the clipboard is not available", { kind: "error" }))}
          >
            Copy what you typed
          </button>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            OK
          </button>
        </>
      }
    >
      <p>
        {why} while you were editing its {field}. Nothing was saved: not into this Record, and not into the one now in its row.
      </p>
      <label htmlFor="edit-lost-typed">
        What you typed into {field}
      </label>
      {/* Takes the focus: keys still being typed go nowhere, and Enter saves nothing. */}
      <textarea id="edit-lost-typed" className="input edit-lost-typed" readOnly rows={3} value={typed} data-autofocus="" />
    </Modal>
  );
}
