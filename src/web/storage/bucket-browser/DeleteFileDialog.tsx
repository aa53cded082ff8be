/** Asks before deleting every version of a file; says what happened in a toast. */
import { ConfirmDialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import type { Entry } from "../listing.utils";
import { useDeleteObjectMutation } from "../object-delete-mutation";

type FileEntry = Extract<Entry, { kind: "file" }>;

export function DeleteFileDialog({ bucket, entry, onCancel, onDeleted }: { bucket: string; entry: FileEntry; onCancel(): void; onDeleted(): void }) {
  const del = useDeleteObjectMutation(bucket);
  return (
    <ConfirmDialog
      title={`Delete ${entry.name}?`}
      confirmLabel={del.isPending ? "Deleting…" : "Delete"}
      danger
      busy={del.isPending}
      onCancel={onCancel}
      onConfirm={() =>
        del.mutate(entry.key, {
          onSuccess: () => {
            toast(`Deleted ${entry.key}`, { kind: "success" });
            onDeleted();
          },
          onError: (e) => toast(`Could not delete ${entry.key}`, { kind: "error", detail: e.message }),
        })
      }
    >
      <p>
        All versions of <code>{entry.key}</code> will be removed from <strong>{bucket}</strong>. Signed links to it stop working. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
