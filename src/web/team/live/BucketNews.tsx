/**
 * What others just did in this bucket (live): "Ada Admin (ada@…) added banners/x.png", replaced,
 * deleted, "moved docs/ → documents/ (3 files)"; the listing itself refetches. A polite status
 * line, dismissible, newest first. When the folder on screen is the one moved, it offers to go
 * where it went (the listing here is empty now).
 */
import { folderPrefix } from "../../storage/paths.utils";
import { formatWhen } from "../audit/format-when";
import { bucketNewsText, movedFolderTo } from "./bucket-news.utils";
import { liveActions, useLiveStore } from "./live-store";
import "./live.css";

export function BucketNews({ bucket, folder, onOpenFolder }: { bucket: string; folder: string; onOpenFolder(folder: string): void }) {
  const news = useLiveStore((s) => s.bucketNews.get(bucket));
  if (!news?.length) return null;
  const prefix = folderPrefix(folder);
  return (
    <div className="bucket-news" role="status">
      <ul>
        {news.slice(0, 3).map((n) => {
          const went = prefix ? movedFolderTo(n, prefix) : undefined;
          return (
            <li key={n.id}>
              {n.who} {bucketNewsText(n)} <span className="muted small">({formatWhen(n.at)})</span>
              {went !== undefined && (
                <>
                  {" "}
                  — the folder shown here went with it.{" "}
                  <button type="button" className="btn btn-sm" onClick={() => onOpenFolder(went)}>
                    Go to {went}
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ul>
      <button type="button" className="btn btn-sm btn-ghost" onClick={() => liveActions.clearBucketNews(bucket)}>
        Dismiss
      </button>
    </div>
  );
}
