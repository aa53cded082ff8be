/**
 * Delete, move or copy the selection (issue 22.1): what will happen and to how much, then the
 * progress with Cancel, then the outcome (what failed and why). Moves and copies go into one
 * folder, each item keeping its name; existing files there are refused unless replacing is ticked.
 */
import { useId, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Modal } from "../../ui/Dialog";
import { REPLACE_IN_FOLDER, conflictText } from "../jobs/job-text.utils";
import { ReplaceCheck, useMayReplace } from "../jobs/ReplaceCheck";
import { afterKeysGone } from "../storage-keys";
import { type BulkOutcome, type BulkProgress, deleteItems, moveItems } from "./bulk-actions-mutation";
import { destinationProblem, goneAfter, type SelectionSummary, selectionText } from "./selection.utils";

export interface BulkDialogProps {
  bucket: string;
  folder: string;
  action: "delete" | "move" | "copy";
  summary: SelectionSummary;
  /** Where to move or copy to, when already chosen (entries dropped onto a folder); else this folder. */
  to?: string;
  onDone(outcome: BulkOutcome): void;
  onClose(): void;
}

const VERB = { delete: ["Delete", "Deleting", "deleted"], move: ["Move", "Moving", "moved"], copy: ["Copy", "Copying", "copied"] } as const;

export function BulkDialog(p: BulkDialogProps) {
  const qc = useQueryClient();
  const id = useId();
  // The folder shown, as a folder ("docs/"): a name typed after it is a folder inside it (it
  // was "docs", and "archive" typed after it made a sibling "docsarchive": review 30b #3).
  const [to, setTo] = useState(p.to ?? (p.folder && !p.folder.endsWith("/") ? `${p.folder}/` : p.folder));
  const [overwrite, setOverwrite] = useState(false);
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const abort = useRef<AbortController | null>(null);
  // The selection as it was when the dialog opened: the listing changes under it as items move.
  const [summary] = useState(p.summary);
  const items = [...summary.folders, ...summary.files.map((f) => f.key)];
  const what = selectionText(summary);
  const [verb, doing, done] = VERB[p.action];
  const problem = p.action === "delete" ? undefined : destinationProblem(items, to, p.action);
  const mayReplace = useMayReplace(p.bucket, p.action === "copy" ? "copy" : "move");

  const run = async (e: React.FormEvent) => {
    e.preventDefault();
    if (problem) return;
    const ctl = new AbortController();
    abort.current = ctl;
    setProgress({ finished: 0, total: items.length });
    const out =
      p.action === "delete" ? await deleteItems(p.bucket, items, ctl.signal, setProgress) : await moveItems(p.bucket, items, to, p.action, overwrite && mayReplace, ctl.signal, setProgress);
    abort.current = null;
    setOutcome(out);
    // Not the queries about files now gone (the details panel showing one closes in onDone).
    await afterKeysGone(qc, p.bucket, (key) => goneAfter(p.action, out.done, key));
    p.onDone(out);
  };

  if (outcome) {
    return (
      // Each stage its own dialog (key), so that it takes the focus as it opens: the outcome's
      // Close had not, and the focus was on the page while it showed (review 30b #1).
      <Modal key="outcome" title={`${verb}: ${outcome.failed.length ? "finished with problems" : outcome.cancelled ? "cancelled" : "done"}`} onClose={p.onClose} className="dialog-confirm">
        <p data-testid="bulk-outcome" role="status">
          {outcome.done.length} of {items.length} {done}
          {p.action !== "delete" ? ` to ${to.replace(/^\/+|\/+$/g, "") ? `${to.replace(/\/*$/, "/")}` : "the top level of the bucket"}` : ""}
          {outcome.cancelled ? "; cancelled before the rest (what was done stays done)" : ""}
          {outcome.failed.length ? `; ${outcome.failed.length} failed:` : "."}
        </p>
        {outcome.failed.length > 0 && (
          <ul className="st-bulk-failed">
            {outcome.failed.slice(0, 50).map((f) => (
              <li key={f.item}>
                <code>{f.item}</code>: {conflictText(f.message, mayReplace ? REPLACE_IN_FOLDER : undefined, "choose another folder") ?? f.message}
              </li>
            ))}
            {outcome.failed.length > 50 && <li>and {outcome.failed.length - 50} more</li>}
          </ul>
        )}
        <div className="dialog-foot">
          <button type="button" className="btn btn-primary" onClick={p.onClose} data-autofocus>
            Close
          </button>
        </div>
      </Modal>
    );
  }

  if (progress) {
    const pct = progress.total ? Math.round((100 * progress.finished) / progress.total) : 0;
    return (
      <Modal key="progress" title={`${doing} ${what}`} onClose={() => {}} canClose={false} className="dialog-confirm">
        <div className="st-job" aria-live="polite">
          <progress max={100} value={pct} aria-label="Progress" />
          <p data-testid="bulk-progress">
            {progress.finished.toLocaleString()} of {progress.total.toLocaleString()} done
            {progress.job && progress.job.total > 1 ? ` (this folder: ${progress.job.done} of ${progress.job.total} files)` : ""}
          </p>
        </div>
        <div className="dialog-foot">
          <button type="button" className="btn" onClick={() => abort.current?.abort()} disabled={abort.current?.signal.aborted}>
            Cancel
          </button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal key="ask" title={`${verb} ${what}`} onClose={p.onClose} className="dialog-confirm">
      <form onSubmit={run} noValidate>
        {p.action === "delete" ? (
          <p data-testid="bulk-confirm">
            This deletes {what} from {p.bucket}
            {summary.folders.length ? ", with everything under the folders," : ""} and every version of each file. It cannot be undone.
          </p>
        ) : (
          <>
            <label htmlFor={id}>Into the folder (in {p.bucket}; empty for the top level)</label>
            <input id={id} className="input" value={to} data-autofocus onChange={(e) => setTo(e.target.value)} aria-invalid={!!problem} aria-describedby={`${id}-help`} placeholder="folder/sub/" />
            <p id={`${id}-help`} className={problem ? "st-error-text" : "st-muted"}>
              {problem ?? `Each keeps its name${summary.folders.length ? "; folders go with everything under them" : ""}${p.action === "copy" ? "; the newest version of each file is copied (the older ones stay with the original)" : ", with every version"}.`}
            </p>
            <ReplaceCheck label={REPLACE_IN_FOLDER} checked={overwrite} allowed={mayReplace} onChange={setOverwrite} />
          </>
        )}
        <div className="dialog-foot">
          {/* A delete cannot be undone: the focus starts on Cancel, so one Enter does not delete (as elsewhere). */}
          <button type="button" className="btn" onClick={p.onClose} data-autofocus={p.action === "delete" ? true : undefined}>
            Cancel
          </button>
          <button type="submit" className={`btn ${p.action === "delete" ? "btn-danger" : "btn-primary"}`} disabled={!!problem}>
            {verb} {what}
          </button>
        </div>
      </form>
    </Modal>
  );
}
