/**
 * The upload queue on screen: total progress, one row per file with its own bar, cancel and
 * retry, the service's message on failure and the new versioned key when done.
 */
import { useShallow } from "zustand/react/shallow";
import { formatBytes } from "../format.utils";
import { Icon } from "../ui/icons";
import { type UploadItem, queueTotals } from "./upload-queue.utils";
import { cancelAllUploads, cancelUpload, clearFinishedUploads, dismissUpload, retryUpload, useUploadStore } from "./upload-store";

const STATUS_TEXT: Record<UploadItem["status"], string> = {
  checking: "Checking…",
  confirm: "Exists: waiting for your choice",
  queued: "Waiting",
  uploading: "Uploading",
  done: "Uploaded",
  error: "Failed",
  cancelled: "Cancelled",
  skipped: "Skipped (kept the existing file)",
};

export function UploadPanel() {
  const items = useUploadStore(useShallow((s) => s.items));
  if (items.length === 0) return null;
  const t = queueTotals({ items });
  const pct = Math.round(t.fraction * 100);
  const finished = [
    t.counts.done && `${t.counts.done} uploaded`,
    t.counts.error && `${t.counts.error} failed`,
    t.counts.cancelled && `${t.counts.cancelled} cancelled`,
    t.counts.skipped && `${t.counts.skipped} skipped`,
  ].filter(Boolean);
  const active = t.counts.uploading + t.counts.queued + t.counts.checking + t.counts.confirm;
  const summary = t.busy ? `Uploading ${active} of ${items.length} file${items.length === 1 ? "" : "s"}` : finished.join(", ");
  return (
    <section className="st-uploads" aria-label="Uploads">
      <header className="st-uploads-head">
        <strong>{summary}</strong>
        {t.total > 0 && (
          <span className="st-muted">
            {formatBytes(t.loaded)} of {formatBytes(t.total)}
          </span>
        )}
        <div className="st-uploads-buttons">
          {t.busy && (
            <button type="button" className="st-btn st-btn-small" onClick={cancelAllUploads}>
              Cancel all
            </button>
          )}
          {t.counts.done + t.counts.cancelled + t.counts.skipped > 0 && (
            <button type="button" className="st-btn st-btn-small" onClick={clearFinishedUploads}>
              Clear finished
            </button>
          )}
        </div>
      </header>
      {t.total > 0 && <progress className="st-progress st-progress-total" max={100} value={pct} aria-label="Total upload progress" aria-valuetext={`${pct}%`} />}
      <ul className="st-upload-list">
        {items.map((i) => (
          <UploadRow key={i.id} item={i} />
        ))}
      </ul>
    </section>
  );
}

function UploadRow({ item }: { item: UploadItem }) {
  const pct = item.size > 0 ? Math.round((item.loaded / item.size) * 100) : item.status === "done" ? 100 : 0;
  const active = ["checking", "confirm", "queued", "uploading"].includes(item.status);
  return (
    <li className={`st-upload st-upload-${item.status}`} data-status={item.status} aria-label={`Upload of ${item.key}`}>
      <div className="st-upload-line">
        <span className="st-upload-key" title={`${item.bucket}/${item.key}`}>
          {item.key}
        </span>
        <span className="st-upload-status">
          {STATUS_TEXT[item.status]}
          {item.status === "uploading" && ` ${pct}%`}
        </span>
        {active && (
          <button type="button" className="st-icon-btn" aria-label={`Cancel upload of ${item.key}`} onClick={() => cancelUpload(item.id)}>
            <Icon name="x" />
          </button>
        )}
        {(item.status === "error" || item.status === "cancelled") && (
          <button type="button" className="st-icon-btn" aria-label={`Retry upload of ${item.key}`} onClick={() => retryUpload(item.id)}>
            <Icon name="retry" />
          </button>
        )}
        {!active && (
          <button type="button" className="st-icon-btn" aria-label={`Dismiss ${item.key} from the list`} title="Remove from this list" onClick={() => dismissUpload(item.id)}>
            <Icon name="x" />
          </button>
        )}
      </div>
      {(active || item.status === "done") && <progress className="st-progress" max={100} value={pct} aria-label={`Progress of ${item.key}`} />}
      {item.status === "error" && (
        <p className="st-error-text" role="alert">
          {item.error}
        </p>
      )}
      {item.status === "done" && item.versionedKey && (
        <p className="st-muted st-small">
          Stored as <code className="st-versioned-key">{item.versionedKey}</code> ({formatBytes(item.size)})
        </p>
      )}
    </li>
  );
}
