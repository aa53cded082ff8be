/**
 * The upload queue on screen: total progress, one row per file with its own bar, cancel and
 * retry, the service's message on failure (internal versioned keys are not shown). Focus never
 * falls to the page when the button under it goes away (cancel → retry, dismiss, clear).
 */
import { useRef, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import { formatBytes } from "../format.utils";
import { Icon } from "../../ui/icons";
import { type UploadItem, canRetry, isActive, queueTotals, resumedText } from "./upload-queue.utils";
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

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function UploadPanel() {
  const items = useUploadStore(useShallow((s) => s.items));
  const [open, setOpen] = useState(true);
  const panelRef = useRef<HTMLElement>(null);
  if (items.length === 0) return null;
  const t = queueTotals({ items });
  const pct = Math.round(t.fraction * 100);
  const c = t.counts;
  const finished = [c.done && `${c.done} uploaded`, c.error && `${c.error} failed`, c.cancelled && `${c.cancelled} cancelled`, c.skipped && `${c.skipped} skipped`].filter(Boolean);
  const moving = c.uploading + c.queued + c.checking;
  const waiting = items.filter((i) => i.status === "uploading" && i.waiting).length;
  const summary = c.confirm
    ? `Waiting for your choice on ${plural(c.confirm, "file")}`
    : waiting
      ? `Offline: ${plural(waiting, "upload")} will go on when the connection is back`
      : t.busy
      ? [`Uploading ${plural(moving, "file")}`, c.done && `${c.done} done`, c.error && `${c.error} failed`].filter(Boolean).join(" · ")
      : finished.join(", ");
  // After a button that held the focus goes away, keep the keyboard in the panel.
  const refocus = (from?: HTMLElement) => {
    const li = from?.closest("li");
    const next = li?.nextElementSibling ?? li?.previousElementSibling;
    requestAnimationFrame(() => {
      const target = next?.isConnected ? next.querySelector<HTMLElement>("button") : null;
      (target ?? panelRef.current)?.focus();
    });
  };
  const listId = "st-upload-list";
  return (
    <section className="st-uploads" aria-label="Uploads" ref={panelRef} tabIndex={-1}>
      <header className="st-uploads-head">
        <strong>{summary}</strong>
        {/* Announced once the queue settles, not at every file of a large drop. */}
        <span className="sr-only" aria-live="polite">
          {t.busy && !c.confirm && !waiting ? "" : `Uploads: ${summary}`}
        </span>
        {t.total > 0 && (
          <span className="st-muted">
            {formatBytes(t.loaded)} of {formatBytes(t.total)}
          </span>
        )}
        <div className="st-uploads-buttons">
          {t.busy && (
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => {
                cancelAllUploads();
                refocus();
              }}
            >
              Cancel all
            </button>
          )}
          {c.done + c.cancelled + c.skipped > 0 && (
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => {
                clearFinishedUploads();
                refocus();
              }}
            >
              Clear finished
            </button>
          )}
          <button type="button" className="btn btn-sm" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
            {open ? "Hide files" : `Show ${plural(items.length, "file")}`}
          </button>
        </div>
      </header>
      {t.total > 0 && <progress className="st-progress st-progress-total" max={100} value={pct} aria-label="Total upload progress" aria-valuetext={`${pct}%`} />}
      <ul className="st-upload-list" id={listId} hidden={!open}>
        {items.map((i) => (
          <UploadRow key={i.id} item={i} onGone={refocus} />
        ))}
      </ul>
    </section>
  );
}

function UploadRow({ item, onGone }: { item: UploadItem; onGone(from: HTMLElement): void }) {
  const pct = item.size > 0 ? Math.round((item.loaded / item.size) * 100) : item.status === "done" ? 100 : 0;
  const active = isActive(item.status);
  const retry = canRetry(item);
  const resumed = resumedText(item);
  return (
    <li className={`st-upload st-upload-${item.status}`} data-status={item.status} aria-label={`Upload of ${item.key}`}>
      <div className="st-upload-line">
        <span className="st-upload-key" title={`${item.bucket}/${item.key}`}>
          {item.key}
        </span>
        <span className="st-muted st-upload-size">{formatBytes(item.size)}</span>
        {/* The stored version's internal key is for the details panel, not for this list. */}
        <span className="st-upload-status">
          {item.status === "uploading" && item.waiting
            ? `Waiting for the connection (${pct}% stored)`
            : item.status === "uploading" && pct >= 100
              ? // Every byte sent, the answer not yet in (the last part stored, the file put together):
                // not done, and still cancellable (review 48b #5: "Uploading 100%" read as finished).
                "Finishing…"
              : STATUS_TEXT[item.status]}
          {item.status === "uploading" && !item.waiting && pct < 100 && ` ${pct}%`}
        </span>
        {resumed && (item.status === "uploading" || item.status === "done") && (
          <span className="st-muted st-upload-resumed" title="The service already had the first parts of this file from an earlier attempt; only the rest was sent.">
            {resumed}
          </span>
        )}
        {/* One slot for Cancel and Retry: the same button stays under the focus when one becomes the other. */}
        {(active || retry) && (
          <button
            type="button"
            className="btn btn-sm"
            aria-label={active ? `Cancel upload of ${item.key}` : `Retry upload of ${item.key}`}
            onClick={() => {
              if (active) cancelUpload(item.id);
              else retryUpload(item.id);
            }}
          >
            {active ? (
              "Cancel"
            ) : (
              <>
                <Icon name="retry" /> Retry
              </>
            )}
          </button>
        )}
        {!active && (
          <button
            type="button"
            className="btn-icon"
            aria-label={`Dismiss ${item.key} from the list`}
            title="Remove from this list"
            onClick={(e) => {
              onGone(e.currentTarget);
              dismissUpload(item.id);
            }}
          >
            <Icon name="x" />
          </button>
        )}
      </div>
      {active && <progress className="st-progress" max={100} value={pct} aria-label={`Progress of ${item.key}`} />}
      {item.status === "error" && (
        <p className="st-error-text" role="alert">
          {item.error}
        </p>
      )}
    </li>
  );
}
