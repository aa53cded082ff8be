/**
 * What others just did in this bucket (live): "Ada Admin (ada@…) uploaded a new file
 * banners/x.png", replaced, deleted, moved or copied; the listing itself refetches. A polite
 * status line, dismissible, newest first.
 */
import { formatWhen } from "../audit/format-when";
import { liveActions, useLiveStore } from "./live-store";
import "./live.css";

const VERB = { new: "added", replaced: "replaced", deleted: "deleted", moved: "moved", copied: "copied", "moved or copied": "moved or copied" } as const;

export function BucketNews({ bucket }: { bucket: string }) {
  const news = useLiveStore((s) => s.bucketNews.get(bucket));
  if (!news?.length) return null;
  return (
    <div className="bucket-news" role="status">
      <ul>
        {news.slice(0, 3).map((n) => (
          <li key={n.id}>
            {n.who} {VERB[n.what]} {n.keys.slice(0, 3).join(", ")}
            {n.keys.length > 3 ? ` and ${n.keys.length - 3} more` : ""} <span className="muted small">({formatWhen(n.at)})</span>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-sm btn-ghost" onClick={() => liveActions.clearBucketNews(bucket)}>
        Dismiss
      </button>
    </div>
  );
}
