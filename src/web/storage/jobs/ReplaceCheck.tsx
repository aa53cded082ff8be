/**
 * "Replace existing files" in the move and copy dialogs. A copy that replaces adds a version
 * on top of what is there; a move that replaces removes every version of it, which is a delete:
 * only people who may delete in the bucket may tick it for a move (the proxy refuses it
 * otherwise), and the box says why it is held back, in words anyone can read.
 */
import { useId } from "react";
import { useMay } from "../../team/me-get-query";

/** Whether this person may replace files with this action in this bucket. */
export function useMayReplace(bucket: string, action: "move" | "copy"): boolean {
  const may = useMay().bucket(bucket);
  return action === "copy" || may.delete;
}

export function ReplaceCheck(p: { label: string; checked: boolean; onChange(checked: boolean): void; allowed: boolean }) {
  const id = useId();
  return (
    <>
      <label className="st-check">
        <input type="checkbox" checked={p.checked && p.allowed} disabled={!p.allowed} aria-describedby={p.allowed ? undefined : id} onChange={(e) => p.onChange(e.target.checked)} /> {p.label}
      </label>
      {!p.allowed && (
        <p id={id} className="st-muted st-check-note">
          A move that replaces files removes every version of them, as deleting does: ask an admin, or choose Copy, which keeps them.
        </p>
      )}
    </>
  );
}
