/** Filter, view switch, new folder and upload: the controls above the folder's entries. */
import { useId } from "react";
import type { ViewMode } from "../browser-state";
import { Icon } from "../ui/icons";

export interface BrowserToolbarProps {
  filter: string;
  onFilter(text: string): void;
  view: ViewMode;
  onView(v: ViewMode): void;
  canCreate: boolean;
  createBlockedReason: string;
  onNewFolder(): void;
  onUpload(): void;
}

export function BrowserToolbar(p: BrowserToolbarProps) {
  const filterId = useId();
  return (
    <div className="st-toolbar" role="toolbar" aria-label="Folder tools">
      <label htmlFor={filterId} className="st-sr-only">
        Filter by name
      </label>
      <input
        id={filterId}
        type="search"
        className="st-filter"
        placeholder="Filter by name in this folder"
        value={p.filter}
        onChange={(e) => p.onFilter(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && p.filter) {
            e.preventDefault();
            p.onFilter("");
          }
        }}
      />
      <div className="st-segmented" role="group" aria-label="View">
        <button type="button" aria-pressed={p.view === "list"} aria-label="List view" title="List view" onClick={() => p.onView("list")}>
          <Icon name="list" />
        </button>
        <button type="button" aria-pressed={p.view === "grid"} aria-label="Grid view" title="Grid view" onClick={() => p.onView("grid")}>
          <Icon name="grid" />
        </button>
      </div>
      <span className="st-toolbar-spacer" />
      <button type="button" className="st-btn" onClick={p.onNewFolder} disabled={!p.canCreate} title={p.canCreate ? "Create a folder here" : p.createBlockedReason}>
        <Icon name="folderPlus" /> New folder
      </button>
      <button type="button" className="st-btn st-btn-primary" onClick={p.onUpload} disabled={!p.canCreate} title={p.canCreate ? "Upload files into this folder" : p.createBlockedReason}>
        <Icon name="upload" /> Upload files
      </button>
    </div>
  );
}
