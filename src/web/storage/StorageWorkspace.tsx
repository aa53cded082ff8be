/**
 * The storage workspace for one bucket: the browser of one folder (the folder lives in the URL,
 * owned by the shell), drag-and-drop and button uploads into it, previews, links and deletes.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { AppConfig, MetaBucket } from "../../shared/meta";
import { BucketBrowser } from "./bucket-browser/BucketBrowser";
import { storageKeys } from "./storage-keys";
import { ReplaceConfirm } from "./upload/ReplaceConfirm";
import { UploadPanel } from "./upload/UploadPanel";
import { onUploaded } from "./upload/upload-store";
import { normalizeFolder } from "./paths.utils";
import "./storage.css";

const REFRESH_MS = 1000;

export interface StorageWorkspaceProps {
  bucket: string;
  folder: string;
  onFolderChange(folder: string): void;
  /** A file whose details to open (a link from Activity), and what to do once they are. */
  openFile?: string;
  onFileOpened?(): void;
  config: AppConfig;
}

export function StorageWorkspace({ bucket, folder, onFolderChange, openFile, onFileOpened, config }: StorageWorkspaceProps) {
  const qc = useQueryClient();
  // Refresh the bucket's listings after uploads, whichever folder is on screen by then: the first
  // at once, then at most once a second while files keep arriving (100 files, not 100 listings).
  useEffect(() => {
    const due = new Set<string>();
    let batch: ReturnType<typeof setTimeout> | undefined;
    const refresh = (b: string) => void qc.invalidateQueries({ queryKey: storageKeys.bucket(b) });
    const endWindow = () => {
      batch = undefined;
      if (due.size === 0) return;
      for (const b of due) refresh(b);
      due.clear();
      batch = setTimeout(endWindow, REFRESH_MS);
    };
    const off = onUploaded((item) => {
      if (batch) due.add(item.bucket);
      else {
        refresh(item.bucket);
        batch = setTimeout(endWindow, REFRESH_MS);
      }
    });
    return () => {
      off();
      clearTimeout(batch);
      for (const b of due) refresh(b);
    };
  }, [qc]);

  const meta = config.buckets.find((b) => b.name === bucket);
  return (
    <div className="st-workspace">
      {meta ? (
        <BucketGate meta={meta}>
          <BucketBrowser
            key={bucket}
            bucket={meta}
            folder={normalizeFolder(folder)}
            onFolderChange={(f) => onFolderChange(normalizeFolder(f))}
            capabilities={config.capabilities}
            openFile={openFile}
            onFileOpened={onFileOpened}
          />
        </BucketGate>
      ) : (
        <div className="st-state" role="alert">
          <h2>No bucket “{bucket}”</h2>
          <p className="st-muted">The upstream has no bucket by that name. Choose one of the buckets in the sidebar.</p>
        </div>
      )}
      <UploadPanel />
      <ReplaceConfirm />
    </div>
  );
}

/** A forbidden bucket is never requested; one without read access cannot be browsed. */
function BucketGate({ meta, children }: { meta: MetaBucket; children: React.ReactNode }) {
  if (meta.permission === "forbidden") {
    return (
      <div className="st-state" role="alert">
        <h1>{meta.name} is forbidden</h1>
        <p className="st-muted">Files in a forbidden bucket cannot be accessed through the API, so Baseboard does not request them.</p>
      </div>
    );
  }
  return <>{children}</>;
}

export default StorageWorkspace;
