/**
 * A folder exists only through the keys under it, so "create" means: pick a name, go there, and
 * upload into it. Until the first file arrives the folder is remembered in this session only.
 */
import { useId, useState } from "react";
import { folderNameProblem, joinKey } from "../paths.utils";
import { Modal } from "../../ui/Dialog";

export interface NewFolderDialogProps {
  folder: string;
  existing: string[];
  onCreate(fullFolder: string): void;
  onClose(): void;
}

export function NewFolderDialog({ folder, existing, onCreate, onClose }: NewFolderDialogProps) {
  const [name, setName] = useState("");
  const [touched, setTouched] = useState(false);
  const id = useId();
  const problem = folderNameProblem(name, { existing, atRoot: folder === "" });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!problem) onCreate(joinKey(folder, name.trim()));
  };
  return (
    <Modal title="New folder" onClose={onClose} className="dialog-confirm">
      <form onSubmit={submit} noValidate>
        <label htmlFor={id}>Folder name</label>
        <input
          id={id}
          className="input"
          value={name}
          data-autofocus
          onChange={(e) => setName(e.target.value)}
          onBlur={() => setTouched(true)}
          aria-invalid={touched && !!problem}
          aria-describedby={`${id}-help`}
          placeholder="e.g. reports/2026"
        />
        <p id={`${id}-help`} className={touched && problem ? "st-error-text" : "st-muted"}>
          {touched && problem ? problem : `Created in ${folder ? `“${folder}”` : "the bucket root"}. It appears for others once a file is uploaded into it.`}
        </p>
        <div className="dialog-foot">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary">
            Create and open
          </button>
        </div>
      </form>
    </Modal>
  );
}
