/**
 * Uploads in parts this browser started in this folder and did not finish (a reload, a closed
 * tab, a crash): listed with what the service has stored, and how to go on, which is to drop or
 * choose the same file again (a browser cannot reopen a file by itself). Discard ends the session
 * on the service. Nothing listed them after a reload, so nobody knew they could resume (reviews
 * 28b #14, 30b).
 */
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { refocusIfLost } from "../../ui/focus-fallback";
import { toast } from "../../ui/toast";
import { formatBytes } from "../format.utils";
import { discardUnfinished, unfinishedUploadQueryOptions } from "./unfinished-upload-query";
import { type UnfinishedUpload, unfinishedUploads } from "./unfinished-uploads";
import { ackedBytes } from "./upload-parts.utils";
import { isActive } from "./upload-queue.utils";
import { useUploadStore } from "./upload-store";

export function UnfinishedUploads({ bucket, folder }: { bucket: string; folder: string }) {
  const items = useUploadStore((s) => s.items);
  const [seen, setSeen] = useState(0);
  const reread = useCallback(() => setSeen((n) => n + 1), []);
  const list = useMemo(
    // Not those the queue still holds with their file (sending, or failed with Retry): the row
    // there says how to go on (review 46b #2: this box said "drop the same file again" beside it).
    () => unfinishedUploads(bucket, folder).filter((u) => !items.some((i) => i.bucket === bucket && i.key === u.key && (isActive(i.status) || (i.status === "error" && i.retryable !== false)))),
    // `seen`: read again after one is discarded or found gone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [bucket, folder, items, seen],
  );
  if (list.length === 0) return null;
  return (
    <div className="bucket-news st-unfinished" role="region" aria-label="Unfinished uploads">
      <p>{list.length === 1 ? "An upload from this browser did not finish:" : `${list.length} uploads from this browser did not finish:`}</p>
      <ul>
        {list.map((u) => (
          <UnfinishedRow key={u.storageKey} u={u} onGone={reread} />
        ))}
      </ul>
    </div>
  );
}

function UnfinishedRow({ u, onGone }: { u: UnfinishedUpload; onGone(): void }) {
  const status = useQuery(unfinishedUploadQueryOptions(u));
  // The service no longer has it: not listed (the query forgot it).
  const gone = status.data === null;
  useEffect(() => {
    if (gone) onGone();
  }, [gone, onGone]);
  const [discarding, setDiscarding] = useState(false);
  if (status.data === null || status.data?.completed) return null;
  const stored = status.data ? ackedBytes(u.size, status.data.partSize, status.data.parts) : undefined;
  return (
    <li>
      <strong>{u.key}</strong> ({formatBytes(u.size)}
      {stored !== undefined ? `; ${formatBytes(stored)} stored` : ""}). Drop or choose the same file here again to go on from there.{" "}
      <button
        type="button"
        className="btn btn-sm"
        disabled={discarding}
        aria-label={`Discard the unfinished upload of ${u.key}`}
        onClick={() => {
          setDiscarding(true);
          discardUnfinished(u).then(
            () => {
              onGone();
              toast(`Discarded the unfinished upload of ${u.key}`, { kind: "success" });
              // The button went with its notice: the focus to the listing, not the page (review 31b #2).
              refocusIfLost();
            },
            (e: Error) => {
              setDiscarding(false);
              toast(`Could not discard the upload of ${u.key}`, { kind: "error", detail: e.message });
            },
          );
        }}
      >
        Discard
      </button>
    </li>
  );
}
