/**
 * Preview of a file that is not an image: text inline (the first 64 KB), PDF in the browser's
 * own viewer where it has one, and for everything else the icon and what is known about it.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiFetch } from "../../api-client";
import { FileActions } from "../bucket-browser/FileActions";
import { fileKind, formatBytes, formatDate, typeLabel } from "../format.utils";
import type { Entry } from "../listing.utils";
import { textPreviewQueryOptions } from "../storage-queries";
import { objectUrl } from "../thumb.utils";
import { Modal } from "../ui/Modal";
import { FileIcon } from "./FileIcon";

type FileEntry = Extract<Entry, { kind: "file" }>;

/** Larger PDFs are not pulled into the page just to look at them; download them instead. */
const PDF_INLINE_MAX = 25 * 1024 * 1024;

export interface FilePreviewProps {
  bucket: string;
  entry: FileEntry;
  canDelete: boolean;
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
      ) : kind === "pdf" ? (
        <PdfPreview bucket={bucket} entry={entry} />
      ) : (
        <NoPreview entry={entry} reason="There is no inline preview for this type of file." />
      )}
      <p className="st-muted st-small">
        Key: <code>{entry.key}</code>
        {entry.versionedKey && (
          <>
            {" "}
            · version <code>{entry.versionedKey}</code>
          </>
        )}
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
  const q = useQuery(textPreviewQueryOptions(bucket, entry.key, entry.etag));
  if (q.isPending) return <p className="st-muted">Loading preview…</p>;
  if (q.isError) return <p role="alert">Could not load the preview: {q.error.message}</p>;
  return (
    <>
      <pre className="st-text-preview" aria-label={`Contents of ${entry.name}`} tabIndex={0}>
        {q.data.text}
      </pre>
      {q.data.truncated && <p className="st-note">Only the first 64 KB are shown. Download the file to see all of it.</p>}
    </>
  );
}

function PdfPreview({ bucket, entry }: { bucket: string; entry: FileEntry }) {
  // navigator.pdfViewerEnabled is false in browsers (and headless runs) without a PDF viewer.
  const viewer = typeof navigator !== "undefined" && navigator.pdfViewerEnabled;
  const tooBig = (entry.size ?? 0) > PDF_INLINE_MAX;
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!viewer || tooBig) return;
    // A blob URL rather than the API URL: the proxy's framing rules then do not matter.
    let url: string | null = null;
    const ctrl = new AbortController();
    apiFetch(objectUrl(bucket, entry.versionedKey ?? entry.key), { signal: ctrl.signal })
      .then((r) => r.blob())
      .then((b) => {
        url = URL.createObjectURL(new Blob([b], { type: "application/pdf" }));
        setSrc(url);
      })
      .catch((e: Error) => {
        if (!ctrl.signal.aborted) setError(e.message);
      });
    return () => {
      ctrl.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [bucket, entry.key, entry.versionedKey, viewer, tooBig]);
  if (!viewer) return <NoPreview entry={entry} reason="This browser has no built-in PDF viewer." />;
  if (tooBig) return <NoPreview entry={entry} reason="This PDF is too large to preview here." />;
  if (error) return <p role="alert">Could not load the PDF: {error}</p>;
  if (!src) return <p className="st-muted">Loading PDF…</p>;
  return <iframe className="st-pdf" src={src} title={`PDF preview of ${entry.name}`} />;
}
