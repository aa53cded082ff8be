/** A running storage job: progress, Cancel, and the outcome once it ends (issue 22.2). */
import { Modal } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { jobPercent, jobText } from "./job-text.utils";
import { useCancelJobMutation, useJobQuery } from "./storage-job-mutation";

export function JobProgressModal({ bucket, jobId, title, onClose }: { bucket: string; jobId: string; title: string; onClose(): void }) {
  const cancel = useCancelJobMutation(bucket);
  const job = useJobQuery(bucket, jobId).data;
  const running = !job || job.state === "running";
  return (
    <Modal title={title} onClose={onClose} className="dialog-confirm">
      <div className="st-job" aria-live="polite">
        <progress max={100} value={job ? jobPercent(job) : 0} aria-label="Progress" />
        <p data-testid="job-text" className={job?.state === "failed" ? "st-error-text" : undefined}>
          {job ? jobText(job) : "Starting…"}
        </p>
      </div>
      <div className="dialog-foot">
        {running && (
          <button type="button" className="btn" disabled={cancel.isPending} onClick={() => cancel.mutate(jobId, { onError: (err) => toast("Could not cancel the job", { kind: "error", detail: err.message }) })}>
            Cancel job
          </button>
        )}
        <button type="button" className="btn btn-primary" onClick={onClose} data-autofocus>
          {running ? "Run in background" : "Close"}
        </button>
      </div>
    </Modal>
  );
}
