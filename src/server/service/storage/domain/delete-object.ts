/** The delete extension (decisions §7): every version of an unversioned key, with its variants. */
import type { ParsedObjectKey } from "../../../../shared/storage";
import { invalid, missing } from "./failure";
import type { Bucket } from "./buckets";
import { objectBlob, type StorageDomain } from "./storage-domain";

export async function deleteObject(d: StorageDomain, bucket: Bucket, key: ParsedObjectKey): Promise<{ key: string; deletedVersions: number }> {
  if (key.version !== undefined) {
    throw invalid(`DELETE removes every version of a key: send "${key.key}" without the v${key.version}/ prefix.`);
  }
  // Rows first, then blobs: a crash in between leaves orphan blobs (swept), never dangling rows.
  const rows = await d.metadata.deleteAll(bucket.name, key.key);
  if (rows.length === 0) throw missing(`There is no object "${key.key}" in bucket "${bucket.name}".`);
  await dropBlobsAfterCommit(d, bucket.name, rows.map((r) => r.file));
  return { key: key.key, deletedVersions: rows.length };
}

/**
 * The blobs (and resized variants) of rows already deleted. Their rows are gone for good, so the
 * delete is done whatever happens here: a store that cannot be reached leaves orphan blobs, which
 * the sweep removes, and is logged, not answered as a failure (review 31a #2: a 503 "try again"
 * for a file already gone, recorded as failed).
 */
export async function dropBlobsAfterCommit(d: StorageDomain, bucket: string, files: string[]): Promise<void> {
  if (files.length === 0) return;
  try {
    await d.blobs.delete(files.map((f) => objectBlob(bucket, f)));
    await Promise.all(files.map((f) => d.variants.dropFile(bucket, f)));
  } catch (e) {
    d.log.warn({ bucket, files: files.length }, `deleted rows' blobs not removed now (${(e as Error).message.split("\n")[0]}); the sweep removes them`);
  }
}
