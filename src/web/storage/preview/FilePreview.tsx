/**
 * Preview of one file: text inline (the first 64 KiB), PDF in the browser's own viewer where it
 * has one, an image (one opened by key, outside the folder's lightbox) at the size drawn, and for
 * everything else the icon and what is known about it.
 */
import { useQuery } from "@tanstack/react-query";
import { type DeleteOffer, FileActions } from "../bucket-browser/FileActions";
import { fileKind, formatBytes, formatDate, isVectorImage, typeLabel } from "../format.utils";
import type { Entry } from "../listing.utils";
import { textPreviewQueryOptions } from "../object-text-query";
import { objectUrl, pixelBox } from "../thumb.utils";
import { Modal } from "../../ui/Dialog";
import { FileIcon } from "./FileIcon";
import { Waiting } from "../../ui/Waiting";

type FileEntry = Extract<Entry, { kind: "file" }>;

export interface FilePreviewProps {
  bucket: string;
  entry: FileEntry;
  canDelete: DeleteOffer;
  onLink(e: FileEntry): void;
  onDelete(e: FileEntry): void;
  onClose(): void;
}

export function FilePreview({ bucket, entry, canDelete, onLink, onDelete, onClose }: FilePreviewProps) {
  const kind = fileKind(entry.contentType, entry.key);
  return (
    <Modal
      title={entry.name}
      onClose={onClose}
      className="st-preview"
      footer={
        <>
          <span className="st-muted">
            {typeLabel(entry.contentType, entry.key)} · {formatBytes(entry.size)} · {formatDate(entry.lastModified)}
          </span>
          <FileActions bucket={bucket} entry={entry} canDelete={canDelete} onLink={onLink} onDelete={onDelete} />
        </>
      }
    >
      {kind === "text" ? (
        <TextPreview bucket={bucket} entry={entry} />
      ) : kind === "image" ? (
        <img className="st-preview-img" src={objectUrl(bucket, entry.versionedKey ?? entry.key, isVectorImage(entry.contentType, entry.key) ? undefined : pixelBox(680, 480, window.devicePixelRatio))} alt={entry.name} />
      ) : kind === "pdf" ? (
        <PdfPreview bucket={bucket} entry={entry} />
      ) : (
        <NoPreview entry={entry} reason="There is no inline preview for this type of file." />
      )}
      {/* The key only: the versioned key the preview loads (v…/key) is internal (the details panel numbers versions). */}
      <p className="st-muted st-small">
        Key: <code>{entry.key}</code>
      </p>
    </Modal>
  );
}

function NoPreview({ entry, reason }: { entry: FileEntry; reason: string }) {
  return (
    <div className="st-no-preview">
      <FileIcon name={entry.name} contentType={entry.contentType} size={96} />
      <p>{reason} Use Download to open it.</p>
    </div>
  );
}

function TextPreview({ bucket, entry }: { bucket: string; entry: FileEntry }) {
  const q = useQuery(textPreviewQueryOptions(bucket, entry.versionedKey ?? entry.key, entry.etag));
  if (q.isPending) return <Waiting what="Loading the preview" className="st-muted" />;
  if (q.isError) return <p role="alert">Could not load the preview: {q.error.message}</p>;
  return (
    <>
      <pre className="st-text-preview" aria-label={`Contents of ${entry.name}`} tabIndex={0}>
        {q.data.text}
      </pre>
      {q.data.truncated && <p className="st-note">Only the first 64 KiB are shown. Download the file to see all of it.</p>}
    </>
  );
}

function PdfPreview({ bucket, entry }: { bucket: string; entry: FileEntry }) {
  // navigator.pdfViewerEnabled is false in browsers (and headless runs) without a PDF viewer.
  const viewer = typeof navigator !== "undefined" && navigator.pdfViewerEnabled;
  if (!viewer) return <NoPreview entry={entry} reason="This browser has no built-in PDF viewer." />;
  // The file's own URL, not a blob: the viewer then streams it by ranges, shows its real name,
  // and its Save button saves "manual.pdf" rather than a random id. Versioned: what was listed.
  return <iframe className="st-pdf" src={objectUrl(bucket, entry.versionedKey ?? entry.key)} title={`PDF preview of ${entry.name}`} />;
}
