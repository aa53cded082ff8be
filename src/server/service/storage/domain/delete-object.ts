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
  await d.blobs.delete(rows.map((r) => objectBlob(bucket.name, r.file)));
  await Promise.all(rows.map((r) => d.variants.dropFile(bucket.name, r.file)));
  return { key: key.key, deletedVersions: rows.length };
}
