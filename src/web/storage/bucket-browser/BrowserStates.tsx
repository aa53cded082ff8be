/** What the listing says when there is nothing to list, and the footer's count. */

export function countText(folders: number, files: number): string {
  const parts = [];
  // Written as the selection bar and the dialogs write counts (review 50b #6: "2100 files" beside "2,100 files").
  if (folders) parts.push(`${folders.toLocaleString("en-US")} folder${folders === 1 ? "" : "s"}`);
  if (files || !folders) parts.push(`${files.toLocaleString("en-US")} file${files === 1 ? "" : "s"}`);
  return parts.join(", ");
}

export interface EmptyStateProps {
  filtered: boolean;
  /** Where the filter looked: this folder, or the whole bucket (a search). */
  scope: "folder" | "bucket";
  /** False where the upstream cannot list: then "empty" only means nothing was uploaded from here. */
  listed: boolean;
  canCreate: boolean;
  folder: string;
  onClearFilter(): void;
}

export function EmptyState({ filtered, scope, listed, canCreate, folder, onClearFilter }: EmptyStateProps) {
  if (filtered) {
    return (
      <div className="st-state st-muted">
        <p>{scope === "bucket" ? "Nothing in this bucket matches the search." : "Nothing in this folder matches the filter."}</p>
        <button type="button" className="btn" onClick={onClearFilter}>
          Clear the filter
        </button>
      </div>
    );
  }
  return (
    <div className="st-state st-empty">
      <p>
        <strong>{!listed ? "No files uploaded from this browser here yet." : folder ? "This folder is empty." : "This bucket is empty."}</strong>
      </p>
      <p className="st-muted">
        {canCreate
          ? folder
            ? "Drop files here or use Upload files. A folder exists only through the files in it: until one is uploaded, others will not see it."
            : "Drop files here or use Upload files."
          : "This bucket does not allow uploads."}
      </p>
    </div>
  );
}
