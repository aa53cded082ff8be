/**
 * Rename, move or copy a file or a whole folder (issue 22.2): the new path, then the server-side
 * job's progress with Cancel, then the outcome. Destinations that exist are refused unless
 * "Replace existing files" is ticked (the service answers 409 and nothing changes).
 */
import { useId, useState } from "react";
import { Modal } from "../../ui/Dialog";
import { REPLACE_AT_PATH, conflictText } from "./job-text.utils";
import { pathProblem } from "./move-path.utils";
import { JobProgressModal } from "./JobProgressModal";
import { ReplaceCheck, useMayReplace } from "./ReplaceCheck";
import { type JobAction, useStartJobMutation } from "./storage-job-mutation";

export interface MoveDialogProps {
  bucket: string;
  /** A key, or a folder ending in "/". */
  from: string;
  /** Preselected action. */
  action: Exclude<JobAction, "delete">;
  /** `to`: where the job put it, when one ran (the browser then focuses it there). */
  onClose(to?: string): void;
}

export function MoveDialog({ bucket, from, action: initial, onClose }: MoveDialogProps) {
  const id = useId();
  const [to, setTo] = useState(from);
  const [action, setAction] = useState(initial);
  const [overwrite, setOverwrite] = useState(false);
  const [jobId, setJobId] = useState<string>();
  const start = useStartJobMutation(bucket);
  const mayReplace = useMayReplace(bucket, action);
  const problem = pathProblem(from, to);
  // The service's refusal of the last try (a path taken): said in the dialog, beside the path,
  // until the path or the choices change (a toast stayed up beside the next try's success).
  const [failure, setFailure] = useState<string>();
  // The path it opens with is not a mistake yet: no red before the person has typed anything.
  const shown = failure ?? (to === from ? undefined : problem);
  const what = from.endsWith("/") ? "folder" : "file";

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (problem) return;
    start.mutate(
      { action, from, to, overwrite: overwrite && mayReplace },
      {
        onSuccess: (j) => setJobId(j.id),
        onError: (err) => {
          setFailure(`Could not ${action} ${from}: ${conflictText(err.message, mayReplace ? REPLACE_AT_PATH : undefined, `choose another ${from.endsWith("/") ? "path" : "name"}`) ?? err.message}`);
          // Back to the path, to change it (the Move button the focus was on was busy, and it fell to the page).
          requestAnimationFrame(() => document.getElementById(id)?.focus());
        },
      },
    );
  };

  if (jobId) return <JobProgressModal bucket={bucket} jobId={jobId} title={`${action === "move" ? "Moving" : "Copying"} ${from}`} onClose={() => onClose(to)} />;

  return (
    <Modal title={`Move, rename or copy ${what}`} onClose={() => onClose()} className="dialog-confirm">
      <form onSubmit={submit} noValidate>
        <fieldset className="st-job-action">
          <legend>Action</legend>
          <label>
            <input type="radio" name={`${id}-action`} checked={action === "move"} onChange={() => (setAction("move"), setFailure(undefined))} /> Move or rename
          </label>
          <label>
            <input type="radio" name={`${id}-action`} checked={action === "copy"} onChange={() => (setAction("copy"), setFailure(undefined))} /> Copy
          </label>
        </fieldset>
        <label htmlFor={id}>New path in {bucket}</label>
        <input id={id} className="input" value={to} data-autofocus onChange={(e) => (setTo(e.target.value), setFailure(undefined))} aria-invalid={!!shown} aria-describedby={`${id}-help`} />
        <p id={`${id}-help`} className={shown ? "st-error-text" : "st-muted"} role={failure ? "alert" : undefined}>
          {shown ??
            (action === "copy"
              ? `The newest version of ${from.endsWith("/") ? "each file under the folder" : "the file"} is copied (a new file; the older versions stay with the original).`
              : from.endsWith("/")
                ? "Everything under the folder goes along, with every version."
                : "Every version goes along.")}
        </p>
        <ReplaceCheck label={REPLACE_AT_PATH} checked={overwrite} allowed={mayReplace} onChange={(checked) => (setOverwrite(checked), setFailure(undefined))} />
        <div className="dialog-foot">
          <button type="button" className="btn" onClick={() => onClose()}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={start.isPending || !!problem}>
            {action === "move" ? "Move" : "Copy"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
