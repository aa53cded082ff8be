/** What one can do with a file: copy a link, download, delete. Used in rows, cards and previews. */
import type { Entry } from "../listing.utils";
import { objectUrl } from "../thumb.utils";
import { Icon } from "../../ui/icons";

type FileEntry = Extract<Entry, { kind: "file" }>;

export interface FileActionsProps {
  bucket: string;
  entry: FileEntry;
  canDelete: boolean;
  onLink(e: FileEntry): void;
  onDelete(e: FileEntry): void;
  compact?: boolean;
}

export function FileActions({ bucket, entry, canDelete, onLink, onDelete, compact }: FileActionsProps) {
  return (
    <div className={`st-actions ${compact ? "st-actions-compact" : ""}`}>
      <button type="button" className="btn btn-sm" aria-label={`Copy a link to ${entry.name}`} title="Copy link" onClick={() => onLink(entry)}>
        <Icon name="link" />
        {!compact && " Link"}
      </button>
      <a className="btn btn-sm" href={objectUrl(bucket, entry.versionedKey ?? entry.key)} download={entry.name} aria-label={`Download ${entry.name}`} title="Download">
        <Icon name="download" />
        {!compact && " Download"}
      </a>
      {canDelete && (
        <button type="button" className="btn btn-sm btn-danger-quiet" aria-label={`Delete ${entry.name}`} title="Delete" onClick={() => onDelete(entry)}>
          <Icon name="trash" />
          {!compact && " Delete"}
        </button>
      )}
    </div>
  );
}
