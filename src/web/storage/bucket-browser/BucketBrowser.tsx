/**
 * One folder of one bucket: breadcrumbs, toolbar, the entries (list or grid), paging, and the
 * dropzone that uploads into the folder on screen. Dialogs for previews, links and deletes.
 */
import { PresenceBar } from "../../team/live/PresenceBar";
import { BucketNews } from "../../team/live/BucketNews";
import { usePresence } from "../../team/live/use-presence";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useMay } from "../../team/me-get-query";
import { useDropzone } from "react-dropzone";
import { useQuery } from "@tanstack/react-query";
import { searchQueryOptions } from "../search-query";
import type { Capabilities, MetaBucket } from "../../../shared/meta";
import { toast } from "../../ui/toast";
import { useBrowserPrefs, usePendingFolders } from "../browser-state";
import { fileKind } from "../format.utils";
import { LinkDialog } from "../links/LinkDialog";
import { type Entry, filterEntries, nextSort, sortEntries } from "../listing.utils";
import { uploadKeyFor, uploadKeyProblem } from "../paths.utils";
import { FilePreview } from "../preview/FilePreview";
import { Lightbox } from "../preview/Lightbox";
import { enqueueUploads } from "../upload/upload-store";
import { DeleteFileDialog } from "./DeleteFileDialog";
import { DeleteFolderDialog } from "../jobs/DeleteFolderDialog";
import { MoveDialog } from "../jobs/MoveDialog";
import { Breadcrumbs } from "./Breadcrumbs";
import { BrowserActions, BrowserToolbar, UPLOAD_BUTTON_ID } from "./BrowserToolbar";
import { EmptyState, countText } from "./BrowserStates";
import { EntryGrid, EntryList } from "./EntryViews";
import { NewFolderDialog } from "./NewFolderDialog";
import { OpenKeyDialog } from "../open-key/OpenKeyDialog";
import { baseName, parentFolder } from "../paths.utils";
import { headObject } from "../object-head-query";
import { UnfinishedUploads } from "../upload/UnfinishedUploads";
import { FOCUSABLE, moveByArrow, ROW } from "./arrow-keys";
import { focusFallback, refocusIfLost } from "../../ui/focus-fallback";
import { useFolderEntries } from "./use-folder-entries";
import { SelectionBar } from "../selection/SelectionBar";
import type { DeleteOffer } from "./FileActions";
import { BulkDialog } from "../selection/BulkDialog";
import { goneAfter, prune, selectRange, type SelectionSummary, summarize, toggle, toggleAll } from "../selection/selection.utils";
import { useDragToFolder } from "./drag-to-folder";
import { FileDetails } from "../details/FileDetails";
import { Waiting } from "../../ui/Waiting";

type FileEntry = Extract<Entry, { kind: "file" }>;

export interface BucketBrowserProps {
  bucket: MetaBucket;
  folder: string;
  onFolderChange(folder: string): void;
  capabilities: Capabilities;
  /** A file whose details to open once (a link from Activity to the file, not only its folder). */
  openFile?: string;
  onFileOpened?(): void;
}

const PERMISSION_LABEL: Record<MetaBucket["permission"], string> = {
  public: "public",
  limitedPublic: "limited public",
  forbidden: "forbidden",
};

const PERMISSION_TEXT: Record<MetaBucket["permission"], string> = {
  public: "Public: anyone can read files without a key",
  limitedPublic: "Limited public: key and an authorized IP address required",
  forbidden: "Forbidden",
};

export function BucketBrowser({ bucket, folder, onFolderChange, capabilities, openFile: fileToOpen, onFileOpened }: BucketBrowserProps) {
  const name = bucket.name;
  usePresence(`bucket:${name}`);
  // The bucket's own access, narrowed by what this person may do (from /api/me; the proxy refuses anyway).
  const may = useMay().bucket(name);
  const canRead = bucket.access.includes("read");
  const canCreate = bucket.access.includes("create") && may.write;
  const canDelete: DeleteOffer = capabilities.delete && bucket.access.includes("update") ? may.delete || may.why("delete") : false;
  const createBlockedReason = !may.write ? may.why("change") : `The bucket “${name}” does not allow uploads: it does not grant create access.`;
  const { view, sort, setView, setSort } = useBrowserPrefs();
  const addPending = usePendingFolders((s) => s.add);
  const [filterState, setFilterState] = useState({ folder, text: "" });
  const filterRef = useRef<HTMLInputElement>(null);
  const filter = filterState.folder === folder ? filterState.text : "";
  const [preview, setPreview] = useState<FileEntry | null>(null);
  const [lightboxKey, setLightboxKey] = useState<string | null>(null);
  const [linkFor, setLinkFor] = useState<FileEntry | null>(null);
  const [deleteFor, setDeleteFor] = useState<FileEntry | null>(null);
  const [newFolder, setNewFolder] = useState(false);
  const [moveFrom, setMoveFrom] = useState<string | null>(null);
  const [deleteFolder, setDeleteFolder] = useState<string | null>(null);
  const [openKey, setOpenKey] = useState(false);
  // The selection (issue 22.1) belongs to one folder (or one search) at a time.
  const [selection, setSelection] = useState<{ where: string; ids: Set<string>; anchor: string | null }>({ where: "", ids: new Set(), anchor: null });
  // A bulk action on the selection, or on entries dragged onto a folder (`to`: where they were dropped).
  const [bulk, setBulk] = useState<{ action: "delete" | "move" | "copy"; summary?: SelectionSummary; to?: string } | null>(null);
  const [details, setDetails] = useState<FileEntry | null>(null);
  // Another folder: the details of a file of the one left go (they followed into it).
  useEffect(() => setDetails(null), [name, folder]);

  const data = useFolderEntries(name, folder, capabilities.list, canRead);
  // A link to one file: its details open, from the listing, or asked of the service when the file
  // is on a later page; one gone since says so instead of showing nothing.
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (!fileToOpen) {
      opened.current = null;
      return;
    }
    if (opened.current === fileToOpen || !canRead || data.isPending) return;
    opened.current = fileToOpen;
    const listed = data.entries.find((e): e is FileEntry => e.kind === "file" && e.key === fileToOpen);
    const open = (item: FileEntry | undefined) => {
      if (item) setDetails(item);
      else {
        toast(`${fileToOpen} is no longer in ${name}`, { kind: "error", detail: "It was moved, renamed or deleted since. Search the bucket for its name, or look in Activity for where it went." });
        // The link that led here is on another page: the focus to the listing, not the page (review 31b #3).
        refocusIfLost();
      }
      onFileOpened?.();
    };
    if (listed) return open(listed);
    headObject(name, fileToOpen).then(
      (item) => open(item && { ...item, kind: "file", name: baseName(fileToOpen) }),
      (e: Error) => {
        toast(`Could not open ${fileToOpen}`, { kind: "error", detail: e.message });
        onFileOpened?.();
      },
    );
  }, [fileToOpen, canRead, data.isPending, data.entries, name, onFileOpened]);
  const [scope, setScope] = useState<"folder" | "bucket">("folder");
  const searching = scope === "bucket" && filter.trim() !== "" && capabilities.search === true;
  const found = useQuery({ ...searchQueryOptions(name, filter.trim()), enabled: searching });
  const shown = useMemo(
    () => sortEntries(searching ? (found.data ?? []) : filterEntries(data.entries, filter), sort),
    [searching, found.data, data.entries, filter, sort],
  );
  const where = `${name}\u0000${folder}\u0000${searching ? filter : ""}`;
  const selected = useMemo(() => (selection.where === where ? prune(selection.ids, shown) : new Set<string>()), [selection, where, shown]);
  const summary = useMemo(() => summarize(selected, shown), [selected, shown]);
  const select = (id: string, range: boolean) =>
    setSelection((s) => {
      const ids = s.where === where ? s.ids : new Set<string>();
      return { where, ids: range ? selectRange(ids, shown, s.where === where ? s.anchor : null, id) : toggle(ids, id), anchor: id };
    });
  const selectAll = () => setSelection((s) => ({ where, ids: toggleAll(s.where === where ? prune(s.ids, shown) : new Set(), shown), anchor: null }));
  const clearSelection = () => setSelection({ where, ids: new Set(), anchor: null });
  const images = useMemo(() => shown.filter((e): e is FileEntry => e.kind === "file" && fileKind(e.contentType, e.key) === "image"), [shown]);
  const lightboxIndex = lightboxKey === null ? -1 : images.findIndex((i) => i.key === lightboxKey);

  const onDrop = (files: File[]) => {
    if (!files.length) return;
    if (!canCreate) {
      toast(`Nothing was uploaded to ${name}`, { kind: "error", detail: createBlockedReason });
      return;
    }
    enqueueUploads(
      name,
      files.map((file) => {
        const rel = (file as File & { relativePath?: string; path?: string }).relativePath ?? (file as File & { path?: string }).path;
        const key = uploadKeyFor(folder, file.name, rel);
        return { key, file, problem: uploadKeyProblem(key) };
      }),
      { canRead, canUpdate: bucket.access.includes("update") && may.write, resumable: capabilities.resumable === true },
    );
  };
  // Enabled even where uploads are not allowed, so that a drop there says why nothing is uploaded
  // (a disabled dropzone ignores it silently).
  const dz = useDropzone({ onDrop, noClick: true, noKeyboard: true, multiple: true });

  // Keyboard users keep their place: the folder button they pressed, or the row they deleted,
  // is gone from the page afterwards, so the focus goes to the listing (or the row that took the
  // deleted one's place) instead of falling back to the top of the page.
  const prevFolder = useRef(folder);
  useEffect(() => {
    if (prevFolder.current === folder) return;
    prevFolder.current = folder;
    if (document.activeElement === document.body || document.activeElement === null) dz.rootRef.current?.focus();
  }, [folder, dz.rootRef]);
  // After "Load more", the keyboard carries on at the first row that was not there before.
  const [focusRowAt, setFocusRowAt] = useState<{ folder: string; index: number } | null>(null);
  useEffect(() => {
    if (!focusRowAt) return;
    if (focusRowAt.folder !== folder || data.error) return setFocusRowAt(null);
    const rows = dz.rootRef.current?.querySelectorAll<HTMLElement>("[data-entry-main]");
    if (rows && rows.length > focusRowAt.index) {
      setFocusRowAt(null);
      rows[focusRowAt.index].focus();
    }
  }, [focusRowAt, folder, data.error, shown, dz.rootRef]);
  const [focusAfterDelete, setFocusAfterDelete] = useState<{ key: string; index: number } | null>(null);
  useEffect(() => {
    const f = focusAfterDelete;
    if (!f || shown.some((e) => e.kind === "file" && e.key === f.key)) return;
    setFocusAfterDelete(null);
    const rows = dz.rootRef.current?.querySelectorAll<HTMLElement>("[data-entry-main]");
    const target = rows && rows.length > 0 ? rows[Math.min(f.index, rows.length - 1)] : dz.rootRef.current;
    target?.focus();
  }, [shown, focusAfterDelete, dz.rootRef]);

  const openFile = (e: FileEntry) => (fileKind(e.contentType, e.key) === "image" ? setLightboxKey(e.key) : setPreview(e));
  const onDelete = (e: FileEntry) => setDeleteFor(e);
  const onLink = (e: FileEntry) => setLinkFor(e);
  // Entries dragged onto a folder: the Move dialog, its destination filled in (where moving is offered).
  const drag = useDragToFolder(
    selected,
    canCreate && capabilities.jobs ? (ids, to) => setBulk({ action: "move", summary: summarize(new Set(ids), shown), to }) : undefined,
  );
  const viewProps = {
    bucket: name,
    entries: shown,
    sort,
    onSort: (by: Parameters<typeof nextSort>[1]) => setSort(nextSort(sort, by)),
    onOpenFolder: onFolderChange,
    onOpenFile: openFile,
    onLink,
    onDelete,
    canDelete,
    // Server-side jobs (issue 22.2): shown only where the bucket allows writes; against an
    // upstream without jobs the Move button stays, disabled, and says why.
    onMove: canCreate ? (from: string) => setMoveFrom(from) : undefined,
    moveBlocked: capabilities.jobs ? undefined : "Moving, renaming and copying run as server-side jobs, and this upstream has none (no jobs in its capabilities).",
    // Refused with the role's reason, like a file's, when the person may not delete.
    onDeleteFolder: canDelete !== false && capabilities.jobs ? (f: string) => setDeleteFolder(f) : undefined,
    selected,
    onSelect: select,
    onSelectAll: selectAll,
    onDetails: (e: FileEntry) => setDetails(e),
    drag,
  };
  // The entry holding the focus went (deleted or moved by someone else, seen live): the focus
  // goes to the entry now in its place, not to the page (review 30b #2; the grid does the same).
  // Only in the same listing: opening another folder takes the focus to its own place.
  const focusedEntry = useRef<{ where: string; at: number; control: number } | null>(null);
  useLayoutEffect(() => {
    const was = focusedEntry.current;
    if (!was || was.where !== where || was.at < 0 || (document.activeElement && document.activeElement !== document.body)) return;
    const rows = [...document.querySelectorAll<HTMLElement>(`.st-browser :is(${ROW})`)];
    const row = rows[Math.min(was.at, rows.length - 1)];
    const controls = row ? [...row.querySelectorAll<HTMLElement>(FOCUSABLE)] : [];
    (controls[Math.max(0, Math.min(was.control, controls.length - 1))] ?? focusFallback())?.focus();
  }, [shown, where]);
  const focusTo = useRef<{ key: string; until: number } | null>(null);
  useLayoutEffect(() => {
    const want = focusTo.current;
    if (!want) return;
    if (Date.now() > want.until) return void (focusTo.current = null);
    const el = document.querySelector<HTMLElement>(`.st-browser [data-entry-key="${CSS.escape(want.key)}"]`);
    // Not when the person has gone on elsewhere meanwhile (the focus outside the listing).
    const inPlace = !document.activeElement || document.activeElement === document.body || !!document.activeElement.closest(".st-browser");
    if (!el || !inPlace) return;
    focusTo.current = null;
    el.focus();
  });
  const folderNames = data.entries.filter((e) => e.kind === "folder").map((e) => e.name);
  const fileCount = data.entries.length - folderNames.length;

  return (
    <section
      className="st-browser"
      aria-label={`Bucket ${name}`}
      onFocus={(e) => {
        const row = (e.target as HTMLElement).closest<HTMLElement>(ROW);
        focusedEntry.current = row
          ? { where, at: [...e.currentTarget.querySelectorAll(ROW)].indexOf(row), control: [...row.querySelectorAll(FOCUSABLE)].indexOf(e.target as Element) }
          : null;
      }}
      onBlur={(e) => {
        // Leaving for elsewhere (a removed element fires no blur: that is what is looked for below).
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) focusedEntry.current = null;
      }}
      onKeyDown={(e) => {
        const t = e.target as HTMLElement;
        if (t.closest("input:not([type=checkbox]), textarea, select, dialog, .st-details")) return;
        if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "a") {
          e.preventDefault();
          selectAll();
        } else if (e.key === "Escape" && selected.size > 0) {
          e.preventDefault();
          clearSelection();
        } else if (e.key === "F2" && !e.altKey && !e.ctrlKey && !e.metaKey) {
          // Rename the focused entry, as F2 edits a cell in the grid (review 38b #7): its own Move button.
          const move = t.closest<HTMLElement>(ROW)?.querySelector<HTMLButtonElement>('button[aria-label^="Move, rename or copy"]');
          if (move) {
            e.preventDefault();
            move.click();
          }
        } else if (!e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && moveByArrow(t, e.key)) {
          e.preventDefault();
        }
      }}
    >
      <header className="ws-head st-head">
        <Breadcrumbs bucket={name} folder={folder} onFolderChange={onFolderChange} drag={drag} />
        <PresenceBar view={`bucket:${name}`} />
        <span className={`perm perm-${bucket.permission} st-perm`} title={`${PERMISSION_TEXT[bucket.permission]}. Access: ${bucket.access.join(", ") || "none"}.`}>
          {PERMISSION_LABEL[bucket.permission]}
        </span>
        <span className="spacer" />
        <BrowserActions
          canCreate={canCreate}
          createBlockedReason={createBlockedReason}
          onNewFolder={() => setNewFolder(true)}
          onUpload={dz.open}
          onOpenKey={!capabilities.list && canRead ? () => setOpenKey(true) : undefined}
        />
      </header>
      <BucketNews bucket={name} folder={folder} onOpenFolder={onFolderChange} />
      {capabilities.resumable && canCreate && <UnfinishedUploads bucket={name} folder={folder} />}
      <BrowserToolbar
        filter={filter}
        onFilter={(text) => setFilterState({ folder, text })}
        filterRef={filterRef}
        scope={scope}
        onScope={capabilities.search ? setScope : undefined}
        view={view}
        onView={setView}
        sort={sort}
        onSort={setSort}
      />
      {!capabilities.list && (
        <p className="st-note" role="note">
          This service cannot list the files in a bucket (listing is not part of the hosted interface), so only the files uploaded from this browser are
          shown here, with those opened by key. Other files in “{name}” exist: use Open by key to open one.
        </p>
      )}
      {selected.size > 0 && (
        <SelectionBar
          bucket={name}
          folder={folder}
          summary={summary}
          jobs={capabilities.jobs === true}
          lifetimeChoice={capabilities.expiresIn}
          signMany={capabilities.signMany === true}
          canDelete={canDelete}
          canWrite={canCreate}
          onMove={(a) => setBulk({ action: a })}
          onDelete={() => setBulk({ action: "delete" })}
          onClear={clearSelection}
        />
      )}
      <div className="st-main">
      <div className="st-scroll">
      <div
        {...dz.getRootProps({
          role: "region",
          tabIndex: -1,
          className: `st-dropzone ${dz.isDragActive ? "st-drag" : ""}`,
          "aria-label": folder ? `Files in ${folder}` : `Files in the root of ${name}`,
        })}
      >
        <input {...dz.getInputProps({ "aria-label": "Choose files to upload" })} />
        {dz.isDragActive && (
          <div className={`st-drop-overlay ${canCreate ? "" : "st-drop-refused"}`} aria-hidden="true">
            {canCreate ? `Drop to upload into ${folder ? `“${folder}”` : `the root of ${name}`}` : createBlockedReason}
          </div>
        )}
        {!canRead ? (
          <p className="st-state st-muted" role="note">
            The bucket “{name}” does not grant read access, so its files cannot be listed or shown.
            {canCreate ? " You can still upload into it." : ""}
          </p>
        ) : data.isPending ? (
          <Waiting what={folder ? `Listing ${folder}` : `Listing the root of ${name}`} className="st-muted st-pad" />
        ) : data.error ? (
          <div className="st-state" role="alert">
            <p className="st-error-text">Could not list this folder: {data.error.message}</p>
            <button type="button" className="btn" onClick={data.refetch}>
              Try again
            </button>
          </div>
        ) : searching && found.isPending ? (
          <Waiting what="Searching the bucket" className="st-muted st-pad" />
        ) : searching && found.error ? (
          <div className="st-state" role="alert">
            <p className="st-error-text">Could not search the bucket: {found.error.message}</p>
            <button type="button" className="btn" onClick={() => void found.refetch()}>
              Try again
            </button>
          </div>
        ) : shown.length === 0 ? (
          <EmptyState filtered={searching || (!!filter && data.entries.length > 0)} scope={searching ? "bucket" : "folder"} listed={capabilities.list} canCreate={canCreate} folder={folder} onClearFilter={() => {
              setFilterState({ folder, text: "" });
              filterRef.current?.focus();
            }}
          />
        ) : view === "list" ? (
          <EntryList {...viewProps} />
        ) : (
          <EntryGrid {...viewProps} />
        )}
      </div>
      <footer className="st-foot">
        <span className="st-muted" aria-live="polite">
          {searching ? (
            // A search lists the whole bucket's matches, not this folder: its count is theirs alone.
            `${shown.length.toLocaleString("en-US")} match${shown.length === 1 ? "" : "es"} “${filter.trim()}” in the whole bucket`
          ) : (
            <>
              {data.entries.length > 0 && countText(folderNames.length, fileCount)}
              {data.hasMore ? " loaded so far" : ""}
              {filter ? ` · ${shown.length.toLocaleString("en-US")} match${shown.length === 1 ? "" : "es"} “${filter}”` : ""}
            </>
          )}
        </span>
        {data.hasMore && (
          <button
            type="button"
            className="btn"
            onClick={() => {
              if (data.loadingMore) return;
              setFocusRowAt({ folder, index: shown.length });
              data.loadMore();
            }}
            aria-disabled={data.loadingMore}
          >
            {data.loadingMore ? "Loading…" : "Load more"}
          </button>
        )}
      </footer>
      </div>
      {details && (
        <FileDetails
          key={details.key}
          bucket={name}
          entry={shown.find((e): e is FileEntry => e.kind === "file" && e.key === details.key) ?? details}
          versions={capabilities.versions === true}
          lifetimeChoice={capabilities.expiresIn}
          canRestore={bucket.access.includes("update") && may.write}
          restoreBlocked={!may.write ? may.why("change") : `The bucket “${name}” does not grant update access, so a version cannot be restored.`}
          onClose={() => {
            const key = details.key;
            setDetails(null);
            // Back to the Details button it was opened from (the focus fell to the page), else the file's name.
            requestAnimationFrame(() =>
              (document.querySelector<HTMLElement>(`[data-details-of="${CSS.escape(key)}"]`) ?? document.querySelector<HTMLElement>(`[data-entry-key="${CSS.escape(key)}"]`))?.focus(),
            );
          }}
        />
      )}
      </div>
      {bulk && (
        <BulkDialog
          bucket={name}
          folder={folder}
          action={bulk.action}
          summary={bulk.summary ?? summary}
          to={bulk.to}
          onDone={(out) => {
            setSelection((s) => ({ ...s, ids: new Set([...s.ids].filter((i) => !out.done.includes(i) || bulk.action === "copy")) }));
            // The details of a file deleted or moved away would only show what is gone.
            setDetails((d) => (d && goneAfter(bulk.action, out.done, d.key) ? null : d));
          }}
          onClose={() => setBulk(null)}
        />
      )}

      {newFolder && (
        <NewFolderDialog
          folder={folder}
          existing={folderNames}
          onClose={() => setNewFolder(false)}
          onCreate={(full) => {
            setNewFolder(false);
            addPending(name, full);
            onFolderChange(full);
            // In the new folder, empty until a file is uploaded: on to Upload files, not back to
            // New folder (review 51b #6). After the dialog has given the focus back to its opener.
            requestAnimationFrame(() => document.getElementById(UPLOAD_BUTTON_ID)?.focus());
          }}
        />
      )}
      {openKey && (
        <OpenKeyDialog
          bucket={name}
          folder={folder}
          onClose={() => setOpenKey(false)}
          onOpened={(item) => {
            setOpenKey(false);
            onFolderChange(parentFolder(item.key));
            setPreview({ kind: "file", name: baseName(item.key), ...item });
          }}
        />
      )}
      {lightboxIndex >= 0 && (
        <Lightbox
          bucket={name}
          images={images}
          index={lightboxIndex}
          onIndex={(i) => setLightboxKey(images[i].key)}
          onClose={() => {
            // Back to the image last shown (the dialog gives the focus back to the one it opened from).
            const last = images[lightboxIndex]?.key;
            setLightboxKey(null);
            if (last) requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-entry-key="${CSS.escape(last)}"]`)?.focus());
          }}
          canDelete={canDelete}
          onLink={onLink}
          onDelete={onDelete}
        />
      )}
      {preview && <FilePreview bucket={name} entry={preview} canDelete={canDelete} onLink={onLink} onDelete={onDelete} onClose={() => setPreview(null)} />}
      {linkFor && (
        <LinkDialog
          bucket={name}
          objectKey={linkFor.key}
          versionedKey={linkFor.versionedKey}
          name={linkFor.name}
          isPublic={bucket.permission === "public"}
          lifetimeChoice={capabilities.expiresIn}
          onClose={() => setLinkFor(null)}
        />
      )}
      {moveFrom !== null && (
        <MoveDialog
          bucket={name}
          from={moveFrom}
          action="move"
          onClose={(to) => {
            setMoveFrom(null);
            // Renamed or moved within this folder: the focus goes to it once the listing shows it
            // (review 48b #5: it went to the file that took the old one's place).
            if (to) focusTo.current = { key: to, until: Date.now() + 5_000 };
          }}
        />
      )}
      {deleteFolder !== null && <DeleteFolderDialog bucket={name} folder={deleteFolder} onClose={() => setDeleteFolder(null)} />}
      {deleteFor && (
        <DeleteFileDialog
          bucket={name}
          entry={deleteFor}
          onCancel={() => setDeleteFor(null)}
          onDeleted={() => {
            setFocusAfterDelete({ key: deleteFor.key, index: Math.max(0, shown.findIndex((e) => e.kind === "file" && e.key === deleteFor.key)) });
            setDeleteFor(null);
            setPreview(null);
            setLightboxKey(null);
            setDetails((d) => (d?.key === deleteFor.key ? null : d));
          }}
        />
      )}
    </section>
  );
}
