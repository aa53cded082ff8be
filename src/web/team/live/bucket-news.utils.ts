/** The words of a live bucket notice, and where a folder someone moved went (pure). */
import type { BucketNews } from "./live-store";

const VERB = { new: "added", replaced: "replaced", deleted: "deleted", moved: "moved", copied: "copied", "moved or copied": "moved or copied" } as const;

/**
 * "moved docs/ → documents/ (3 files)" for a job, "added a.png, b.png and 2 more" for files. A
 * job's keys list its source, its destination and every file under both: listed as such they read
 * "moved docs/, documents/, docs/manual.pdf and 5 more" for a folder of 3 files.
 */
export function bucketNewsText(n: BucketNews): string {
  if (n.from !== undefined && n.cancelled) {
    // It read "deleted huge/" while huge/ was still there (800 of 28,800 files went).
    const done = n.count === undefined ? "some files" : `${n.count.toLocaleString("en-US")} file${n.count === 1 ? "" : "s"}`;
    return `${VERB[n.what]} ${done} of ${n.from}${n.to !== undefined ? ` → ${n.to}` : ""}, then cancelled the rest`;
  }
  if (n.from !== undefined) {
    const files = n.count !== undefined && n.from.endsWith("/") ? ` (${n.count} file${n.count === 1 ? "" : "s"})` : "";
    return `${VERB[n.what]} ${n.from}${n.to !== undefined ? ` → ${n.to}` : ""}${files}`;
  }
  return `${VERB[n.what]} ${n.keys.slice(0, 3).join(", ")}${n.keys.length > 3 ? ` and ${n.keys.length - 3} more` : ""}`;
}

/** Where the folder on screen (`prefix`, "" or "docs/a/") is now, when this notice moved it away. */
export function movedFolderTo(n: BucketNews, prefix: string): string | undefined {
  if (n.what !== "moved" || !n.from?.endsWith("/") || n.to === undefined || !prefix.startsWith(n.from)) return undefined;
  const to = n.to.endsWith("/") ? n.to : `${n.to}/`;
  return to + prefix.slice(n.from.length);
}
