/** Asks once for every file whose key already has a version: upload a new version, or skip. */
import { useShallow } from "zustand/react/shallow";
import { ConfirmDialog } from "../../ui/Dialog";
import { awaitingConfirmation } from "./upload-queue.utils";
import { confirmReplace, skipReplace, useUploadStore } from "./upload-store";

export function ReplaceConfirm() {
  const waiting = useUploadStore(useShallow((s) => awaitingConfirmation(s)));
  if (waiting.length === 0) return null;
  const ids = waiting.map((i) => i.id);
  const n = waiting.length;
  return (
    <ConfirmDialog
      title={n === 1 ? "Upload a new version?" : `Upload new versions of ${n} files?`}
      confirmLabel={n === 1 ? "Upload new version" : `Upload ${n} new versions`}
      cancelLabel={n === 1 ? "Skip it" : "Skip them"}
      onConfirm={() => confirmReplace(ids)}
      onCancel={() => skipReplace(ids)}
    >
      <p>
        {n === 1 ? "This key already exists" : "These keys already exist"}. A new upload becomes the latest version; links to the old version keep
        working until they expire.
      </p>
      <ul className="st-replace-list">
        {waiting.map((i) => (
          <li key={i.id}>
            <code>
              {i.bucket}/{i.key}
            </code>
          </li>
        ))}
      </ul>
    </ConfirmDialog>
  );
}
