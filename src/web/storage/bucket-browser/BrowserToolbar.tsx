/**
 * The controls of one folder: what is shown (filter, sort, view) in the toolbar above the
 * entries, and what can be done (open by key, new folder, upload) in the header, as in records.
 */
import { type RefObject, useId } from "react";
import type { ViewMode } from "../browser-state";
import type { SortKey, SortSpec } from "../listing.utils";
import { Icon } from "../../ui/icons";
import { toast } from "../../ui/toast";

export interface BrowserToolbarProps {
  filter: string;
  onFilter(text: string): void;
  filterRef?: RefObject<HTMLInputElement | null>;
  /** Where the filter looks; absent = only this folder (no search upstream). */
  scope?: "folder" | "bucket";
  onScope?(scope: "folder" | "bucket"): void;
  view: ViewMode;
  onView(v: ViewMode): void;
  sort: SortSpec;
  onSort(sort: SortSpec): void;
}

export interface BrowserActionsProps {
  canCreate: boolean;
  createBlockedReason: string;
  onNewFolder(): void;
  onUpload(): void;
  /** Where the bucket cannot be listed: open a file by typing its key. */
  onOpenKey?(): void;
}

export function BrowserToolbar(p: BrowserToolbarProps) {
  const filterId = useId();
  const sortId = useId();
  return (
    <div className="st-toolbar" role="group" aria-label="Folder tools">
      <label htmlFor={filterId} className="sr-only">
        Filter by name
      </label>
      <input
        id={filterId}
        ref={p.filterRef}
        type="search"
        className="input st-filter"
        placeholder={p.scope === "bucket" ? "Search the whole bucket by name" : "Filter by name in this folder"}
        value={p.filter}
        onChange={(e) => p.onFilter(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && p.filter) {
            e.preventDefault();
            p.onFilter("");
          }
        }}
      />
      {p.onScope && (
        <select className="input st-select" aria-label="Where to filter" value={p.scope} onChange={(e) => p.onScope!(e.target.value as "folder" | "bucket")}>
          <option value="folder">This folder</option>
          <option value="bucket">Whole bucket</option>
        </select>
      )}
      {/* One sort control at a time (issue 23.7): the list's column headers sort the list; the
          grid has no headers, so it gets these. */}
      {p.view === "grid" && (
        <>
        <label htmlFor={sortId} className="st-muted st-small">
          Sort
        </label>
        <select id={sortId} className="input st-select" value={p.sort.by} onChange={(e) => p.onSort({ by: e.target.value as SortKey, dir: p.sort.dir })}>
          <option value="name">Name</option>
          <option value="size">Size</option>
          <option value="type">Type</option>
          <option value="date">Modified</option>
        </select>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => p.onSort({ by: p.sort.by, dir: p.sort.dir === "asc" ? "desc" : "asc" })}
          aria-label={p.sort.dir === "asc" ? "Ascending order; switch to descending" : "Descending order; switch to ascending"}
          title="Reverse the order"
        >
          {p.sort.dir === "asc" ? "↑ Asc" : "↓ Desc"}
        </button>
        </>
      )}
      <div className="st-segmented" role="group" aria-label="View">
        <button type="button" aria-pressed={p.view === "list"} aria-label="List view" title="List view" onClick={() => p.onView("list")}>
          <Icon name="list" />
        </button>
        <button type="button" aria-pressed={p.view === "grid"} aria-label="Grid view" title="Grid view" onClick={() => p.onView("grid")}>
          <Icon name="grid" />
        </button>
      </div>
    </div>
  );
}

/**
 * An action that creates files here: held back, not disabled, where this person may not; still
 * reached by Tab, and pressed it says why (a disabled button kept its reason in a tooltip only a
 * mouse finds).
 */
function CreateAction({ p, className, title, onRun, children, id }: { p: BrowserActionsProps; className: string; title: string; onRun(): void; children: React.ReactNode; id?: string }) {
  const why = p.canCreate ? undefined : p.createBlockedReason;
  return (
    <button type="button" id={id} className={className} onClick={why === undefined ? onRun : () => toast(why)} aria-disabled={why === undefined ? undefined : true} aria-description={why} title={why ?? title}>
      {children}
    </button>
  );
}

/** The toolbar's Upload files: where a new, empty folder puts the focus (it has nothing else to do). */
export const UPLOAD_BUTTON_ID = "st-upload-files";

export function BrowserActions(p: BrowserActionsProps) {
  return (
    <>
      {p.onOpenKey && (
        <button type="button" className="btn" onClick={p.onOpenKey} title="Open a file by typing or pasting its key">
          <Icon name="open" /> Open by key
        </button>
      )}
      <CreateAction p={p} className="btn" title="Create a folder here" onRun={p.onNewFolder}>
        <Icon name="folderPlus" /> New folder
      </CreateAction>
      <CreateAction p={p} className="btn btn-primary" title="Upload files into this folder" onRun={p.onUpload} id={UPLOAD_BUTTON_ID}>
        <Icon name="upload" /> Upload files
      </CreateAction>
    </>
  );
}
