/** The folder's entries as a sortable table (list view) or as cards with thumbnails (grid view). */
import { formatBytes, formatDate, typeLabel } from "../format.utils";
import type { Entry, SortKey, SortSpec } from "../listing.utils";
import { FolderIcon } from "../preview/FileIcon";
import { Thumbnail } from "../preview/Thumbnail";
import { DeleteButton, type DeleteOffer, FileActions, MoveButton } from "./FileActions";
import { entryId } from "../selection/selection.utils";
import type { DragToFolder } from "./drag-to-folder";

type FileEntry = Extract<Entry, { kind: "file" }>;

export const LIST_THUMB = 28;
export const GRID_THUMB = { width: 168, height: 120 };

export interface EntryViewProps {
  bucket: string;
  entries: Entry[];
  sort: SortSpec;
  onSort(by: SortKey): void;
  onOpenFolder(folder: string): void;
  onOpenFile(e: FileEntry): void;
  onLink(e: FileEntry): void;
  onDelete(e: FileEntry): void;
  canDelete: DeleteOffer;
  /** Move, rename or copy a key or a folder ("x/"), as a server-side job; absent = not offered. */
  onMove?(from: string): void;
  moveBlocked?: string;
  /** Delete a folder with everything under it (a job); absent = not offered. */
  onDeleteFolder?(folder: string): void;
  /** The selection (issue 22.1): ids are keys, and folders ending in "/". */
  selected: ReadonlySet<string>;
  onSelect(id: string, range: boolean): void;
  onSelectAll(): void;
  /** File details (size, sha256, versions); absent = not offered. */
  onDetails?(e: FileEntry): void;
  /** Entries dragged onto a folder to move them there. */
  drag: DragToFolder;
}

/** A folder row's or card's props: dragged, and taking drops (marked while something is held over it). */
function folderDrop(p: EntryViewProps, e: Extract<Entry, { kind: "folder" }>, className: string): React.HTMLAttributes<HTMLElement> {
  if (e.pending) return { className };
  const t = p.drag.target(e.folder);
  return { ...p.drag.source(entryId(e)), ...t.props, className: `${className} ${t.over ? "st-drop-target" : ""}` };
}

/** Ctrl/⌘-click or Shift-click on an entry selects instead of opening, as in a file manager. */
function selectsInstead(ev: React.MouseEvent, p: EntryViewProps, id: string): boolean {
  if (!(ev.ctrlKey || ev.metaKey || ev.shiftKey)) return false;
  ev.preventDefault();
  p.onSelect(id, ev.shiftKey);
  return true;
}

function SelectBox({ p, e }: { p: EntryViewProps; e: Entry }) {
  if (e.kind === "folder" && e.pending) return null;
  const id = entryId(e);
  return (
    <input
      type="checkbox"
      className="st-check-box"
      aria-label={`Select ${e.kind === "folder" ? "folder " : ""}${e.name}`}
      checked={p.selected.has(id)}
      onChange={() => {}}
      onClick={(ev) => p.onSelect(id, ev.shiftKey)}
    />
  );
}

function SelectAllBox({ p }: { p: EntryViewProps }) {
  const ids = p.entries.filter((e) => e.kind === "file" || !e.pending).map(entryId);
  const count = ids.filter((i) => p.selected.has(i)).length;
  return (
    <input
      type="checkbox"
      className="st-check-box"
      aria-label="Select everything shown (Ctrl/⌘+A)"
      checked={count > 0 && count === ids.length}
      ref={(el) => {
        if (el) el.indeterminate = count > 0 && count < ids.length;
      }}
      onChange={() => p.onSelectAll()}
    />
  );
}

const COLUMNS: { key: SortKey; label: string; className: string }[] = [
  { key: "name", label: "Name", className: "st-col-name" },
  { key: "size", label: "Size", className: "st-col-size" },
  { key: "type", label: "Type", className: "st-col-type" },
  { key: "date", label: "Modified", className: "st-col-date" },
];

export function EntryList(p: EntryViewProps) {
  return (
    <table className="st-table">
      <thead>
        <tr>
          <th className="st-col-check">
            <SelectAllBox p={p} />
          </th>
          {COLUMNS.map((c) => {
            const active = p.sort.by === c.key;
            return (
              <th key={c.key} className={c.className} aria-sort={active ? (p.sort.dir === "asc" ? "ascending" : "descending") : "none"}>
                <button type="button" className="st-sort-btn" onClick={() => p.onSort(c.key)} aria-label={`Sort by ${c.label.toLowerCase()}`}>
                  {c.label}
                  <span aria-hidden="true" className="st-sort-mark">
                    {active ? (p.sort.dir === "asc" ? "▲" : "▼") : ""}
                  </span>
                </button>
              </th>
            );
          })}
          <th className="st-col-actions">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {p.entries.map((e) =>
          e.kind === "folder" ? (
            <tr key={`d:${e.name}`} {...folderDrop(p, e, `st-row-folder ${p.selected.has(entryId(e)) ? "st-selected" : ""}`)}>
              <td className="st-col-check">
                <SelectBox p={p} e={e} />
              </td>
              <td className="st-col-name">
                <button type="button" className="st-name-btn" data-entry-main onClick={(ev) => selectsInstead(ev, p, entryId(e)) || p.onOpenFolder(e.folder)} aria-label={`Open folder ${e.name}`}>
                  <span className="st-thumb st-thumb-icon" style={{ width: LIST_THUMB, height: LIST_THUMB }}>
                    <FolderIcon size={24} />
                  </span>
                  <span className="st-name">{e.name}</span>
                  {e.pending && <span className="st-badge">new, empty</span>}
                </button>
              </td>
              <td className="st-col-size">—</td>
              <td className="st-col-type">Folder</td>
              <td className="st-col-date">—</td>
              <td className="st-col-actions">
                {!e.pending && (p.onMove || p.onDeleteFolder) && (
                  <div className="st-actions st-actions-compact">
                    {p.onMove && <MoveButton label={`folder ${e.name}`} blocked={p.moveBlocked} onMove={() => p.onMove!(e.folder.endsWith("/") ? e.folder : `${e.folder}/`)} compact />}
                    {p.onDeleteFolder && !p.moveBlocked && (
                      <DeleteButton label={`Delete folder ${e.name}`} title="Delete folder" offer={p.canDelete} onDelete={() => p.onDeleteFolder!(e.folder.endsWith("/") ? e.folder : `${e.folder}/`)} compact />
                    )}
                  </div>
                )}
              </td>
            </tr>
          ) : (
            <tr key={`f:${e.key}`} className={p.selected.has(e.key) ? "st-selected" : undefined} {...p.drag.source(e.key)}>
              <td className="st-col-check">
                <SelectBox p={p} e={e} />
              </td>
              <td className="st-col-name">
                <button type="button" className="st-name-btn" data-entry-main data-entry-key={e.key} onClick={(ev) => selectsInstead(ev, p, e.key) || p.onOpenFile(e)} aria-label={`Preview ${e.name}`}>
                  <Thumbnail bucket={p.bucket} name={e.name} objectKey={e.key} versionedKey={e.versionedKey} contentType={e.contentType} width={LIST_THUMB} height={LIST_THUMB} />
                  <span className="st-name">{e.name}</span>
                </button>
              </td>
              <td className="st-col-size">{formatBytes(e.size)}</td>
              <td className="st-col-type">{typeLabel(e.contentType, e.key)}</td>
              <td className="st-col-date">{formatDate(e.lastModified)}</td>
              <td className="st-col-actions">
                <FileActions bucket={p.bucket} entry={e} canDelete={p.canDelete} onLink={p.onLink} onDelete={p.onDelete} onMove={p.onMove} moveBlocked={p.moveBlocked} onDetails={p.onDetails} compact />
              </td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

export function EntryGrid(p: EntryViewProps) {
  return (
    <ul className="st-grid" aria-label="Files and folders">
      {p.entries.map((e) =>
        e.kind === "folder" ? (
          <li key={`d:${e.name}`} {...folderDrop(p, e, `st-card st-card-folder ${p.selected.has(entryId(e)) ? "st-selected" : ""}`)}>
            <span className="st-card-check">
              <SelectBox p={p} e={e} />
            </span>
            <button type="button" className="st-card-main" data-entry-main onClick={(ev) => selectsInstead(ev, p, entryId(e)) || p.onOpenFolder(e.folder)} aria-label={`Open folder ${e.name}`}>
              <span className="st-thumb st-thumb-icon" style={GRID_THUMB}>
                <FolderIcon size={64} />
              </span>
              <span className="st-card-name">{e.name}</span>
              <span className="st-card-meta">{e.pending ? "New, empty folder" : "Folder"}</span>
            </button>
          </li>
        ) : (
          <li key={`f:${e.key}`} className={`st-card ${p.selected.has(e.key) ? "st-selected" : ""}`} {...p.drag.source(e.key)}>
            <span className="st-card-check">
              <SelectBox p={p} e={e} />
            </span>
            <button type="button" className="st-card-main" data-entry-main data-entry-key={e.key} onClick={(ev) => selectsInstead(ev, p, e.key) || p.onOpenFile(e)} aria-label={`Preview ${e.name}`}>
              <Thumbnail bucket={p.bucket} name={e.name} objectKey={e.key} versionedKey={e.versionedKey} contentType={e.contentType} {...GRID_THUMB} />
              <span className="st-card-name" title={e.name}>
                {e.name}
              </span>
              <span className="st-card-meta">
                {formatBytes(e.size)} · {formatDate(e.lastModified)}
              </span>
            </button>
            <FileActions bucket={p.bucket} entry={e} canDelete={p.canDelete} onLink={p.onLink} onDelete={p.onDelete} onMove={p.onMove} moveBlocked={p.moveBlocked} onDetails={p.onDetails} compact />
          </li>
        ),
      )}
    </ul>
  );
}
