/** The folder's entries as a sortable table (list view) or as cards with thumbnails (grid view). */
import { memo, useMemo, useRef } from "react";
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

/**
 * What a row or card does, the same functions for the listing's whole life: they call the props
 * of the latest render. With them, and the entry compared by value, a row renders again only when
 * its own entry, selection or drop mark changes: "Load more" in a folder of 2,000 files rendered
 * every row again (0.2 s more a page at 2,000 rows, review 50b #6).
 */
interface RowActions {
  openFolder(folder: string): void;
  openFile(e: FileEntry): void;
  link(e: FileEntry): void;
  remove(e: FileEntry): void;
  move(from: string): void;
  deleteFolder(folder: string): void;
  select(id: string, range: boolean): void;
  details(e: FileEntry): void;
  /** Drag handlers of an entry (its props when it can be dragged). */
  dragSource(id: string): React.HTMLAttributes<HTMLElement>;
  /** Drop handlers of a folder. */
  dropTarget(folder: string): React.HTMLAttributes<HTMLElement>;
}

function useRowActions(p: EntryViewProps): RowActions {
  const live = useRef(p);
  live.current = p;
  return useMemo<RowActions>(
    () => ({
      openFolder: (f) => live.current.onOpenFolder(f),
      openFile: (e) => live.current.onOpenFile(e),
      link: (e) => live.current.onLink(e),
      remove: (e) => live.current.onDelete(e),
      move: (from) => live.current.onMove?.(from),
      deleteFolder: (f) => live.current.onDeleteFolder?.(f),
      select: (id, range) => live.current.onSelect(id, range),
      details: (e) => live.current.onDetails?.(e),
      dragSource: (id) => ({
        onDragStart: (ev) => live.current.drag.source(id).onDragStart?.(ev),
        onDragEnd: (ev) => live.current.drag.source(id).onDragEnd?.(ev),
      }),
      dropTarget: (folder) => ({
        onDragEnter: (ev) => live.current.drag.target(folder).props.onDragEnter?.(ev),
        onDragOver: (ev) => live.current.drag.target(folder).props.onDragOver?.(ev),
        onDragLeave: (ev) => live.current.drag.target(folder).props.onDragLeave?.(ev),
        onDrop: (ev) => live.current.drag.target(folder).props.onDrop?.(ev),
      }),
    }),
    [],
  );
}

/** What a row shows besides its entry: the same for every row of one render. */
interface RowOptions {
  bucket: string;
  canDelete: DeleteOffer;
  moveBlocked?: string;
  canMove: boolean;
  canDeleteFolder: boolean;
  hasDetails: boolean;
  draggable: boolean;
}

function rowOptions(p: EntryViewProps): RowOptions {
  return {
    bucket: p.bucket,
    canDelete: p.canDelete,
    moveBlocked: p.moveBlocked,
    canMove: !!p.onMove,
    canDeleteFolder: !!p.onDeleteFolder,
    hasDetails: !!p.onDetails,
    draggable: p.drag.enabled,
  };
}

interface RowProps {
  e: Entry;
  selected: boolean;
  /** Something is held over this folder to be dropped into it. */
  over: boolean;
  o: RowOptions;
  act: RowActions;
}

const sameFields = (a: object, b: object) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k]);
};
/** Entries are made again for every page read: the same entry is the same fields. */
const sameRow = (a: RowProps, b: RowProps) => a.selected === b.selected && a.over === b.over && a.act === b.act && sameFields(a.o, b.o) && sameFields(a.e, b.e);

/** A folder row's or card's props: dragged, and taking drops (marked while something is held over it). */
function folderDrop(r: RowProps, e: Extract<Entry, { kind: "folder" }>, className: string): React.HTMLAttributes<HTMLElement> {
  if (e.pending) return { className };
  const drag = r.o.draggable ? { draggable: true, ...r.act.dragSource(entryId(e)), ...r.act.dropTarget(e.folder) } : {};
  return { ...drag, className: `${className} ${r.over ? "st-drop-target" : ""}` };
}

const fileDrag = (r: RowProps, key: string) => (r.o.draggable ? { draggable: true, ...r.act.dragSource(key) } : { draggable: false });

/** Ctrl/⌘-click or Shift-click on an entry selects instead of opening, as in a file manager. */
function selectsInstead(ev: React.MouseEvent, act: RowActions, id: string): boolean {
  if (!(ev.ctrlKey || ev.metaKey || ev.shiftKey)) return false;
  ev.preventDefault();
  act.select(id, ev.shiftKey);
  return true;
}

function SelectBox({ r }: { r: RowProps }) {
  const e = r.e;
  if (e.kind === "folder" && e.pending) return null;
  const id = entryId(e);
  return (
    <input
      type="checkbox"
      className="st-check-box"
      aria-label={`Select ${e.kind === "folder" ? "folder " : ""}${e.name}`}
      checked={r.selected}
      onChange={() => {}}
      onClick={(ev) => r.act.select(id, ev.shiftKey)}
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

/** Each entry's row props, in order. */
function rowsOf(p: EntryViewProps, act: RowActions): RowProps[] {
  const o = rowOptions(p);
  return p.entries.map((e) => ({ e, selected: p.selected.has(entryId(e)), over: e.kind === "folder" && !e.pending && p.drag.target(e.folder).over, o, act }));
}

const COLUMNS: { key: SortKey; label: string; className: string }[] = [
  { key: "name", label: "Name", className: "st-col-name" },
  { key: "size", label: "Size", className: "st-col-size" },
  { key: "type", label: "Type", className: "st-col-type" },
  { key: "date", label: "Modified", className: "st-col-date" },
];

export function EntryList(p: EntryViewProps) {
  const act = useRowActions(p);
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
        {rowsOf(p, act).map((r) => (r.e.kind === "folder" ? <FolderRow key={`d:${r.e.name}`} {...r} /> : <FileRow key={`f:${r.e.key}`} {...r} />))}
      </tbody>
    </table>
  );
}

const FolderRow = memo(function FolderRow(r: RowProps) {
  const e = r.e as Extract<Entry, { kind: "folder" }>;
  const target = e.folder.endsWith("/") ? e.folder : `${e.folder}/`;
  return (
    <tr {...folderDrop(r, e, `st-row-folder ${r.selected ? "st-selected" : ""}`)}>
      <td className="st-col-check">
        <SelectBox r={r} />
      </td>
      <td className="st-col-name">
        <button type="button" className="st-name-btn" data-entry-main onClick={(ev) => selectsInstead(ev, r.act, entryId(e)) || r.act.openFolder(e.folder)} aria-label={`Open folder ${e.name}`}>
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
        {!e.pending && (r.o.canMove || r.o.canDeleteFolder) && (
          <div className="st-actions st-actions-compact">
            {r.o.canMove && <MoveButton label={`folder ${e.name}`} blocked={r.o.moveBlocked} onMove={() => r.act.move(target)} compact />}
            {r.o.canDeleteFolder && !r.o.moveBlocked && <DeleteButton label={`Delete folder ${e.name}`} title="Delete folder" offer={r.o.canDelete} onDelete={() => r.act.deleteFolder(target)} compact />}
          </div>
        )}
      </td>
    </tr>
  );
}, sameRow);

const FileRow = memo(function FileRow(r: RowProps) {
  const e = r.e as FileEntry;
  return (
    <tr className={r.selected ? "st-selected" : undefined} {...fileDrag(r, e.key)}>
      <td className="st-col-check">
        <SelectBox r={r} />
      </td>
      <td className="st-col-name">
        <button type="button" className="st-name-btn" data-entry-main data-entry-key={e.key} onClick={(ev) => selectsInstead(ev, r.act, e.key) || r.act.openFile(e)} aria-label={`Preview ${e.name}`}>
          <Thumbnail bucket={r.o.bucket} name={e.name} objectKey={e.key} versionedKey={e.versionedKey} contentType={e.contentType} width={LIST_THUMB} height={LIST_THUMB} />
          <span className="st-name">{e.name}</span>
        </button>
      </td>
      <td className="st-col-size">{formatBytes(e.size)}</td>
      <td className="st-col-type">{typeLabel(e.contentType, e.key)}</td>
      <td className="st-col-date">{formatDate(e.lastModified)}</td>
      <td className="st-col-actions">
        <FileActionsOf r={r} e={e} />
      </td>
    </tr>
  );
}, sameRow);

function FileActionsOf({ r, e }: { r: RowProps; e: FileEntry }) {
  return (
    <FileActions
      bucket={r.o.bucket}
      entry={e}
      canDelete={r.o.canDelete}
      onLink={r.act.link}
      onDelete={r.act.remove}
      onMove={r.o.canMove ? r.act.move : undefined}
      moveBlocked={r.o.moveBlocked}
      onDetails={r.o.hasDetails ? r.act.details : undefined}
      compact
    />
  );
}

const FolderCard = memo(function FolderCard(r: RowProps) {
  const e = r.e as Extract<Entry, { kind: "folder" }>;
  return (
    <li {...folderDrop(r, e, `st-card st-card-folder ${r.selected ? "st-selected" : ""}`)}>
      <span className="st-card-check">
        <SelectBox r={r} />
      </span>
      <button type="button" className="st-card-main" data-entry-main onClick={(ev) => selectsInstead(ev, r.act, entryId(e)) || r.act.openFolder(e.folder)} aria-label={`Open folder ${e.name}`}>
        <span className="st-thumb st-thumb-icon" style={GRID_THUMB}>
          <FolderIcon size={64} />
        </span>
        <span className="st-card-name">{e.name}</span>
        <span className="st-card-meta">{e.pending ? "New, empty folder" : "Folder"}</span>
      </button>
    </li>
  );
}, sameRow);

const FileCard = memo(function FileCard(r: RowProps) {
  const e = r.e as FileEntry;
  return (
    <li className={`st-card ${r.selected ? "st-selected" : ""}`} {...fileDrag(r, e.key)}>
      <span className="st-card-check">
        <SelectBox r={r} />
      </span>
      <button type="button" className="st-card-main" data-entry-main data-entry-key={e.key} onClick={(ev) => selectsInstead(ev, r.act, e.key) || r.act.openFile(e)} aria-label={`Preview ${e.name}`}>
        <Thumbnail bucket={r.o.bucket} name={e.name} objectKey={e.key} versionedKey={e.versionedKey} contentType={e.contentType} {...GRID_THUMB} />
        <span className="st-card-name" title={e.name}>
          {e.name}
        </span>
        <span className="st-card-meta">
          {formatBytes(e.size)} · {formatDate(e.lastModified)}
        </span>
      </button>
      <FileActionsOf r={r} e={e} />
    </li>
  );
}, sameRow);

export function EntryGrid(p: EntryViewProps) {
  const act = useRowActions(p);
  return (
    <ul className="st-grid" aria-label="Files and folders">
      {rowsOf(p, act).map((r) => (r.e.kind === "folder" ? <FolderCard key={`d:${r.e.name}`} {...r} /> : <FileCard key={`f:${r.e.key}`} {...r} />))}
    </ul>
  );
}
