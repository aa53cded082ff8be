/** Deletes a folder with everything under it, as a server-side job (issue 22.2). */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { folderCountQueryOptions } from "./folder-count-query";
import { ConfirmDialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { JobProgressModal } from "./JobProgressModal";
import { useStartJobMutation } from "./storage-job-mutation";

export function DeleteFolderDialog({ bucket, folder, onClose }: { bucket: string; folder: string; onClose(): void }) {
  const start = useStartJobMutation(bucket);
  const [jobId, setJobId] = useState<string>();
  // How many files go, said before they do (review 29b #12: the job knew a moment later).
  const count = useQuery(folderCountQueryOptions(bucket, folder)).data;
  const files = typeof count === "number" ? `${count.toLocaleString()} file${count === 1 ? "" : "s"}` : undefined;
  if (jobId) return <JobProgressModal bucket={bucket} jobId={jobId} title={`Deleting ${folder}`} onClose={onClose} />;
  return (
    <ConfirmDialog
      title={files ? `Delete folder ${folder} and its ${files}?` : `Delete folder ${folder}?`}
      confirmLabel={start.isPending ? "Starting…" : "Delete folder"}
      danger
      busy={start.isPending}
      onCancel={onClose}
      onConfirm={() =>
        start.mutate({ action: "delete", from: folder }, { onSuccess: (j) => setJobId(j.id), onError: (e) => toast(`Could not delete ${folder}`, { kind: "error", detail: e.message }) })
      }
    >
      <p>
        Every file under <code>{folder}</code> in <strong>{bucket}</strong>
        {files ? <> ({files}, at any depth)</> : null}, with all its versions, will be removed. Signed links to them stop working. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
