/**
 * "Open by key": type or paste a key, a versioned key or a file's URL; the file opens in its
 * preview (from there: download, link, sign) and joins this browser's catalogue of the bucket.
 */
import { useId, useState } from "react";
import { Modal } from "../../ui/Dialog";
import type { StorageItem } from "../listing.utils";
import { useOpenObjectMutation } from "../object-open-mutation";
import { parseKeyInput } from "./open-key.utils";

export interface OpenKeyDialogProps {
  bucket: string;
  folder: string;
  onOpened(item: StorageItem): void;
  onClose(): void;
}

export function OpenKeyDialog({ bucket, folder, onOpened, onClose }: OpenKeyDialogProps) {
  const id = useId();
  // Starts in the folder on screen: most keys typed here are of files next to the others.
  const [text, setText] = useState(folder ? `${folder}/` : "");
  const [problem, setProblem] = useState<string | null>(null);
  const open = useOpenObjectMutation(bucket);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = parseKeyInput(bucket, text);
    if (!parsed.ok) return setProblem(parsed.message);
    setProblem(null);
    open.mutate(parsed.value, {
      onSuccess: (item) => {
        if (item) onOpened(item);
        else setProblem(`There is no file “${parsed.value.key}” in ${bucket}. Keys are case-sensitive.`);
      },
      onError: (err) => setProblem(`Could not open it: ${err.message}`),
    });
  };

  return (
    <Modal title={`Open a file of ${bucket} by key`} onClose={onClose} className="dialog-confirm">
      <form onSubmit={submit} noValidate>
        <label htmlFor={id}>Key, versioned key or URL</label>
        <input
          id={id}
          className="input mono"
          value={text}
          data-autofocus
          spellCheck={false}
          autoComplete="off"
          placeholder="photos/cat.jpg"
          onChange={(e) => {
            setText(e.target.value);
            setProblem(null);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-help`}
        />
        <p id={`${id}-help`} className={problem ? "st-error-text" : "st-muted"} role={problem ? "alert" : undefined}>
          {problem ?? "Such as photos/cat.jpg, or v1732300000000/photos/cat.jpg for one version. Opened files are listed here from then on, in this browser."}
        </p>
        <div className="dialog-foot">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={open.isPending}>
            {open.isPending ? "Opening…" : "Open"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
