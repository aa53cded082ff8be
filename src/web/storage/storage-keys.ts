/** Query keys of the storage capability, in one place; the shorter ones are prefixes for invalidation. */
import type { Query, QueryClient } from "@tanstack/react-query";

export const LIST_PAGE_SIZE = 200;

export const storageKeys = {
  all: ["storage"] as const,
  bucket: (bucket: string) => ["storage", bucket] as const,
  list: (bucket: string, folder: string) => ["storage", bucket, "list", folder, LIST_PAGE_SIZE] as const,
  local: (bucket: string) => ["storage", bucket, "local"] as const,
  search: (bucket: string, text: string) => ["storage", bucket, "search", text] as const,
  job: (bucket: string, id: string) => ["storage", bucket, "job", id] as const,
  text: (bucket: string, key: string, etag: string | undefined) => ["storage", bucket, "text", key, etag ?? ""] as const,
  versions: (bucket: string, key: string) => ["storage", bucket, "versions", key] as const,
  count: (bucket: string, folder: string) => ["storage", bucket, "count", folder] as const,
  unfinished: (bucket: string, session: string) => ["storage", bucket, "unfinished", session] as const,
};

export const bucketPath = (bucket: string) => encodeURIComponent(bucket);

/**
 * Refetches a bucket's queries after keys went away (deleted or moved), except the queries about
 * those keys themselves (versions, text preview): they would only answer 404, and what shows
 * them closes. Those are marked stale without a refetch.
 */
export function afterKeysGone(qc: QueryClient, bucket: string, gone: (key: string) => boolean): Promise<void> {
  const about = (q: Query) => {
    const [, , kind, key] = q.queryKey;
    if (typeof key !== "string") return false;
    // A text preview is keyed by the versioned key it shows (v<n>/<key>).
    return kind === "versions" ? gone(key) : kind === "text" && (gone(key) || gone(key.replace(/^v\d+\//, "")));
  };
  return Promise.all([
    qc.invalidateQueries({ queryKey: storageKeys.bucket(bucket), predicate: (q) => !about(q) }),
    qc.invalidateQueries({ queryKey: storageKeys.bucket(bucket), predicate: about, refetchType: "none" }),
  ]).then(() => undefined);
}
