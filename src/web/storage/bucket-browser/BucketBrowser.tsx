/**
 * One folder of one bucket: breadcrumbs, toolbar, the entries (list or grid), paging, and the
 * dropzone that uploads into the folder on screen. Dialogs for previews, links and deletes.
 */
import { useMemo, useState } from "react";
import { useDropzone } from "react-dropzone";
import { validateObjectKey } from "../../../shared/storage";
import type { Capabilities, MetaBucket } from "../../../shared/meta";
import { toast } from "../../ui/toast";
import { useBrowserPrefs, usePendingFolders } from "../browser-state";
import { fileKind } from "../format.utils";
import { LinkDialog } from "../links/LinkDialog";
import { type Entry, filterEntries, nextSort, sortEntries } from "../listing.utils";
import { folderPrefix, uploadKeyFor } from "../paths.utils";
import { FilePreview } from "../preview/FilePreview";
import { Lightbox } from "../preview/Lightbox";
import { useDeleteObjectMutation } from "../storage-queries";
import { enqueueUploads } from "../upload/upload-store";
import { ConfirmDialog } from "../ui/Modal";
import { Breadcrumbs } from "./Breadcrumbs";
import { BrowserToolbar } from "./BrowserToolbar";
import { EntryGrid, EntryList } from "./EntryViews";
import { NewFolderDialog } from "./NewFolderDialog";
import { useFolderEntries } from "./use-folder-entries";

type FileEntry = Extract<Entry, { kind: "file" }>;

export interface BucketBrowserProps {
  bucket: MetaBucket;
  folder: string;
  onFolderChange(folder: string): void;
  capabilities: Capabilities;
}

const PERMISSION_TEXT: Record<MetaBucket["permission"], string> = {
  public: "Public: anyone can read files without a key",
  limitedPublic: "Limited public: key and an authorized IP address required",
  forbidden: "Forbidden",
};

export function BucketBrowser({ bucket, folder, onFolderChange, capabilities }: BucketBrowserProps) {
  const name = bucket.name;
  const canRead = bucket.access.includes("read");
  const canCreate = bucket.access.includes("create");
  const canDelete = capabilities.delete && bucket.access.includes("update");
  const { view, sort, setView, setSort } = useBrowserPrefs();
  const addPending = usePendingFolders((s) => s.add);
  const [filterState, setFilterState] = useState({ folder, text: "" });
  const filter = filterState.folder === folder ? filterState.text : "";
  const [preview, setPreview] = useState<FileEntry | null>(null);
  const [lightboxKey, setLightboxKey] = useState<string | null>(null);
  const [linkFor, setLinkFor] = useState<FileEntry | null>(null);
  const [deleteFor, setDeleteFor] = useState<FileEntry | null>(null);
  const [newFolder, setNewFolder] = useState(false);
  const del = useDeleteObjectMutation(name);

  const data = useFolderEntries(name, folder, capabilities.list, canRead);
  const shown = useMemo(() => sortEntries(filterEntries(data.entries, filter), sort), [data.entries, filter, sort]);
  const images = useMemo(() => shown.filter((e): e is FileEntry => e.kind === "file" && fileKind(e.contentType, e.key) === "image"), [shown]);
  const lightboxIndex = lightboxKey === null ? -1 : images.findIndex((i) => i.key === lightboxKey);

  const onDrop = (files: File[]) => {
    if (!files.length) return;
    enqueueUploads(
      name,
      files.map((file) => {
        const rel = (file as File & { relativePath?: string; path?: string }).relativePath ?? (file as File & { path?: string }).path;
        const key = uploadKeyFor(folder, file.name, rel);
        const v = validateObjectKey(key);
        return { key, file, problem: v.ok ? null : v.error.message };
      }),
      { canUpdate: bucket.access.includes("update") },
    );
  };
  const dz = useDropzone({ onDrop, noClick: true, noKeyboard: true, disabled: !canCreate, multiple: true });
  const createBlockedReason = `The bucket “${name}” does not allow creating files.`;

  const openFile = (e: FileEntry) => (fileKind(e.contentType, e.key) === "image" ? setLightboxKey(e.key) : setPreview(e));
  const onDelete = (e: FileEntry) => setDeleteFor(e);
  const onLink = (e: FileEntry) => setLinkFor(e);
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
  };
  const folderNames = data.entries.filter((e) => e.kind === "folder").map((e) => e.name);
  const fileCount = data.entries.length - folderNames.length;

  return (
    <section className="st-browser" aria-label={`Bucket ${name}`}>
      <header className="st-head">
        <div className="st-title">
          <h1>{name}</h1>
          <span className={`st-perm st-perm-${bucket.permission}`} title={PERMISSION_TEXT[bucket.permission]}>
            {bucket.permission}
          </span>
          <span className="st-muted st-small">access: {bucket.access.join(", ") || "none"}</span>
        </div>
        <Breadcrumbs bucket={name} folder={folder} onFolderChange={onFolderChange} />
      </header>
      <BrowserToolbar
        filter={filter}
        onFilter={(text) => setFilterState({ folder, text })}
        view={view}
        onView={setView}
        sort={sort}
        onSort={setSort}
        canCreate={canCreate}
        createBlockedReason={createBlockedReason}
        onNewFolder={() => setNewFolder(true)}
        onUpload={dz.open}
      />
      {!capabilities.list && (
        <p className="st-note" role="note">
          The upstream cannot list buckets (listing is not part of the hosted interface), so only the files uploaded from this browser are shown.
        </p>
      )}
      <div {...dz.getRootProps({ role: "region", className: `st-dropzone ${dz.isDragActive ? "st-drag" : ""}`, "aria-label": `Files in ${folderPrefix(folder) || "the bucket root"}` })}>
        <input {...dz.getInputProps({ "aria-label": "Choose files to upload" })} />
        {dz.isDragActive && (
          <div className="st-drop-overlay" aria-hidden="true">
            Drop to upload into {folder ? `“${folder}”` : `the root of ${name}`}
          </div>
        )}
        {!canRead ? (
          <p className="st-state st-muted" role="note">
            The bucket “{name}” does not grant read access, so its files cannot be listed or shown.
            {canCreate ? " You can still upload into it." : ""}
          </p>
        ) : data.isPending ? (
          <p className="st-muted st-pad">Loading…</p>
        ) : data.error ? (
          <div className="st-state" role="alert">
            <p className="st-error-text">Could not list this folder: {data.error.message}</p>
            <button type="button" className="st-btn" onClick={data.refetch}>
              Try again
            </button>
          </div>
        ) : shown.length === 0 ? (
          <EmptyState filtered={!!filter && data.entries.length > 0} canCreate={canCreate} folder={folder} />
        ) : view === "list" ? (
          <EntryList {...viewProps} />
        ) : (
          <EntryGrid {...viewProps} />
        )}
      </div>
      <footer className="st-foot">
        <span className="st-muted" aria-live="polite">
          {data.entries.length > 0 && countText(folderNames.length, fileCount)}
          {data.hasMore ? " loaded so far" : ""}
          {filter ? ` · ${shown.length} match “${filter}”` : ""}
        </span>
        {data.hasMore && (
          <button type="button" className="st-btn" onClick={data.loadMore} disabled={data.loadingMore}>
            {data.loadingMore ? "Loading…" : "Load more"}
          </button>
        )}
      </footer>

      {newFolder && (
        <NewFolderDialog
          folder={folder}
          existing={folderNames}
          onClose={() => setNewFolder(false)}
          onCreate={(full) => {
            setNewFolder(false);
            addPending(name, full);
            onFolderChange(full);
          }}
        />
      )}
      {lightboxIndex >= 0 && (
        <Lightbox
          bucket={name}
          images={images}
          index={lightboxIndex}
          onIndex={(i) => setLightboxKey(images[i].key)}
          onClose={() => setLightboxKey(null)}
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
          name={linkFor.name}
          isPublic={bucket.permission === "public"}
          lifetimeChoice={capabilities.expiresIn}
          onClose={() => setLinkFor(null)}
        />
      )}
      {deleteFor && (
        <ConfirmDialog
          title={`Delete ${deleteFor.name}?`}
          confirmLabel={del.isPending ? "Deleting…" : "Delete"}
          danger
          busy={del.isPending}
          onCancel={() => setDeleteFor(null)}
          onConfirm={() =>
            del.mutate(deleteFor.key, {
              onSuccess: () => {
                toast(`Deleted ${deleteFor.key}`, { kind: "success" });
                setDeleteFor(null);
                setPreview(null);
                setLightboxKey(null);
              },
              onError: (e) => toast(`Could not delete ${deleteFor.key}`, { kind: "error", detail: e.message }),
            })
          }
        >
          <p>
            All versions of <code>{deleteFor.key}</code> will be removed from <strong>{name}</strong>. Signed links to it stop working. This cannot be
            undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function countText(folders: number, files: number): string {
  const parts = [];
  if (folders) parts.push(`${folders} folder${folders === 1 ? "" : "s"}`);
  if (files || !folders) parts.push(`${files} file${files === 1 ? "" : "s"}`);
  return parts.join(", ");
}

function EmptyState({ filtered, canCreate, folder }: { filtered: boolean; canCreate: boolean; folder: string }) {
  if (filtered) return <p className="st-state st-muted">Nothing in this folder matches the filter.</p>;
  return (
    <div className="st-state st-empty">
      <p>
        <strong>{folder ? "This folder is empty." : "This bucket is empty."}</strong>
      </p>
      <p className="st-muted">
        {canCreate
          ? folder
            ? "A folder exists through the files in it: drop files here or use Upload files, and it will be kept."
            : "Drop files here or use Upload files."
          : "This bucket does not allow uploads."}
      </p>
    </div>
  );
}
