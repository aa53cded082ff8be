/** Deletes a folder with everything under it, as a server-side job (issue 22.2). */
import { useState } from "react";
import { ConfirmDialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { JobProgressModal } from "./JobProgressModal";
import { useStartJobMutation } from "./storage-job-mutation";

export function DeleteFolderDialog({ bucket, folder, onClose }: { bucket: string; folder: string; onClose(): void }) {
  const start = useStartJobMutation(bucket);
  const [jobId, setJobId] = useState<string>();
  if (jobId) return <JobProgressModal bucket={bucket} jobId={jobId} title={`Deleting ${folder}`} onClose={onClose} />;
  return (
    <ConfirmDialog
      title={`Delete folder ${folder}?`}
      confirmLabel={start.isPending ? "Starting…" : "Delete folder"}
      danger
      busy={start.isPending}
      onCancel={onClose}
      onConfirm={() =>
        start.mutate({ action: "delete", from: folder }, { onSuccess: (j) => setJobId(j.id), onError: (e) => toast(`Could not delete ${folder}`, { kind: "error", detail: e.message }) })
      }
    >
      <p>
        Every file under <code>{folder}</code> in <strong>{bucket}</strong>, with all its versions, will be removed. Signed links to them stop working. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
