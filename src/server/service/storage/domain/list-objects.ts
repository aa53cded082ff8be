/** The list extension (decisions §7): one folder level of latest versions, paged by cursor. */
import { type StorageListResponse, versionedKey } from "../../../../shared/storage";
import { StorageFailure, invalid } from "./failure";
import type { Bucket } from "./buckets";
import { type Cursor, decodeCursor, encodeCursor, listPage, prefixUpperBound } from "./list-paging";
import type { StorageDomain } from "./storage-domain";

/** Sub-folders the first page gives at once (a folder of more is paged with its files). */
export const FOLDERS_AT_ONCE = 1000;

export async function listObjects(d: StorageDomain, bucket: Bucket, q: { prefix: unknown; cursor: unknown; limit: number }): Promise<StorageListResponse> {
  const prefix = q.prefix ?? "";
  if (typeof prefix !== "string" || prefix.startsWith("/") || prefix.includes("\\") || Buffer.byteLength(prefix) > 1024) {
    throw invalid("prefix must be one folder path such as docs/ (no leading /, no backslash, at most 1024 bytes).");
  }
  let cursor: Cursor | undefined;
  if (q.cursor !== undefined && q.cursor !== "") {
    const decoded = typeof q.cursor === "string" ? decodeCursor(q.cursor) : decodeCursor("");
    if (!decoded.ok) throw StorageFailure.from(decoded.error);
    cursor = decoded.value;
  }
  // Every sub-folder comes with the first page: paged with the files in key order, a folder
  // after 200 files was hidden until "Load more" (review 27b #6). Past FOLDERS_AT_ONCE they are
  // paged with the files as before.
  const every = cursor ? undefined : await d.metadata.subfolders(bucket.name, prefix, prefixUpperBound(prefix), FOLDERS_AT_ONCE + 1);
  const foldersGiven = cursor?.foldersGiven === true || (every !== undefined && every.length <= FOLDERS_AT_ONCE);
  const page = await listPage(prefix, cursor, q.limit, (from, inclusive, below, n) => d.metadata.keys(bucket.name, from, inclusive, below, n));
  const response: StorageListResponse = { items: [], folders: [], nextCursor: page.next ? encodeCursor({ ...page.next, foldersGiven }) : null };
  if (every && foldersGiven) response.folders.push(...every);
  // One read for the page's files (one each took ~2.7 ms: a second and more for 1,000 of them).
  const latest = await d.metadata.latestOf(bucket.name, page.entries.flatMap((e) => (e.kind === "folder" ? [] : [e.key])));
  for (const entry of page.entries) {
    if (entry.kind === "folder") {
      if (!foldersGiven) response.folders.push(entry.prefix);
      continue;
    }
    const row = latest.get(entry.key);
    if (!row) continue; // deleted between the two reads
    response.items.push({
      key: row.key,
      versionedKey: versionedKey(row.version, row.key),
      size: row.size,
      contentType: row.contentType,
      etag: `"${row.sha256}"`,
      lastModified: new Date(row.createdAt).toISOString(),
    });
  }
  return response;
}
