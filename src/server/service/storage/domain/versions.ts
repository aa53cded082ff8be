/**
 * Versions of a key (issue 22.4): every version newest first, and restoring one as the newest.
 *
 * A restore copies the version's blob to a new blob and records it as a new version: each row
 * owns its blob (the metadata's `file` is unique; a delete unlinks the blob of every row it
 * removes, the start-up sweep removes blobs no row names), so two rows sharing one blob would
 * let deleting one take the other's bytes. Blob first, then the row, as an upload does: a crash
 * in between leaves an orphan blob (swept), never a row pointing at nothing.
 */
import { randomUUID } from "node:crypto";
import { type ParsedObjectKey, type RestoreResponse, type StorageVersionsResponse, versionedKey } from "../../../../shared/storage";
import type { Bucket } from "./buckets";
import { StorageFailure, invalid, missing } from "./failure";
import { lookup } from "./read-object";
import { objectBlob, type StorageDomain } from "./storage-domain";

export async function listVersions(d: StorageDomain, bucket: Bucket, key: ParsedObjectKey): Promise<StorageVersionsResponse> {
  if (key.version !== undefined) {
    throw invalid(`Versions are listed per key: send "${key.key}" without the v${key.version}/ prefix.`);
  }
  const rows = await d.metadata.versions(bucket.name, key.key);
  if (rows.length === 0) throw missing(`There is no object "${key.key}" in bucket "${bucket.name}".`);
  return {
    items: rows.map((r) => ({
      versionedKey: versionedKey(r.version, r.key),
      size: r.size,
      contentType: r.contentType,
      sha256: r.sha256,
      lastModified: new Date(r.createdAt).toISOString(),
    })),
  };
}

/** Makes the named version's content the newest version of its key; older versions stay. */
export async function restoreVersion(d: StorageDomain, bucket: Bucket, key: ParsedObjectKey): Promise<RestoreResponse> {
  if (key.version === undefined) {
    throw invalid(`A restore names one version: send v<version>/${key.key}, a versionedKey from GET /v0/storage/versions/${bucket.name}/${key.key}.`);
  }
  const source = await lookup(d, bucket, key);
  const file = randomUUID();
  const blob = objectBlob(bucket.name, file);
  const copied = await d.blobs.put(blob, await d.blobs.get(objectBlob(bucket.name, source.file)));
  // The bytes are read back through the store: they must still be the ones recorded at upload.
  if (copied.sha256 !== source.sha256 || copied.size !== source.size) {
    await d.blobs.delete([blob]).catch(() => undefined);
    throw new StorageFailure("internal_error", `The stored bytes of version v${source.version} of "${source.key}" no longer match its sha256; nothing was restored.`);
  }
  let outcome: Awaited<ReturnType<typeof d.metadata.commit>>;
  try {
    // Only over an existing key: one deleted meanwhile is not brought back by a restore.
    outcome = await d.metadata.commit(
      { bucket: bucket.name, key: source.key, file, size: source.size, contentType: source.contentType, sha256: source.sha256 },
      { create: false, update: true },
    );
  } catch (e) {
    await d.blobs.delete([blob]).catch(() => undefined);
    throw e;
  }
  if (!outcome.ok) {
    await d.blobs.delete([blob]).catch(() => undefined);
    throw missing(`"${source.key}" was deleted from bucket "${bucket.name}" meanwhile; nothing was restored.`);
  }
  return { key: versionedKey(outcome.row.version, outcome.row.key) };
}
