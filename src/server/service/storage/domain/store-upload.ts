/**
 * Uploading a file (interface §4.3, decisions §7): receive it into a new blob, then record it as
 * the newest version. Blob first, then the row: a crash in between leaves an orphan blob (swept
 * at start-up), never a row pointing at nothing; any failure removes the blob.
 */
import { randomUUID } from "node:crypto";
import type { Failure } from "../../../../shared/errors";
import { validateObjectKey, versionedKey } from "../../../../shared/storage";
import type { Bucket } from "./buckets";
import { contentTypeFor } from "./content-type";
import type { Readable } from "node:stream";
import type { PutResult } from "../../blobs/blob-store";
import { StorageFailure } from "./failure";
import { objectBlob, type StorageDomain } from "./storage-domain";

export const accessMissing = (bucket: string, exists: boolean, key: string): Failure => ({
  code: "forbidden",
  message: exists
    ? `"${key}" already exists in bucket "${bucket}", and the bucket does not grant update access to overwrite it.`
    : `"${key}" is a new key, and bucket "${bucket}" does not grant create access.`,
});

/** Which access an upload to this bucket is checked against before its key is known. */
export const uploadOperation = (bucket: Bucket | undefined) => (bucket && !bucket.access.includes("create") ? "update" : "create");

export interface ReceivedFile {
  key: string;
  /** The blob the file was stored as. */
  blob: string;
  size: number;
  sha256: string;
  /** The file part's Content-Type header as sent; undefined when it had none. */
  declaredType: string | undefined;
}

/** What the transport (routes/upload.ts parses multipart) is given to store one received file. */
export interface ReceiveOptions {
  maxBytes: number;
  /** A new blob name for the file. */
  blobName(): string;
  /** Stores a stream as the blob (the blob store's put); must leave nothing when it rejects. */
  put(name: string, body: Readable, maxBytes: number): Promise<PutResult>;
  /** Deletes a stored blob (the upload failed after the file was complete). */
  remove(name: string): Promise<void>;
  /** Called with the key as soon as it is known; a returned failure stops the upload. */
  checkKey(key: string): Failure | undefined | Promise<Failure | undefined>;
}

export type Receiver = (opts: ReceiveOptions) => Promise<ReceivedFile>;

export async function storeUpload(d: StorageDomain, bucket: Bucket, receiveUpload: Receiver): Promise<{ key: string }> {
  const allow = { create: bucket.access.includes("create"), update: bucket.access.includes("update") };
  let file = "";
  const received = await receiveUpload({
    maxBytes: d.maxUploadBytes,
    blobName: () => objectBlob(bucket.name, (file = randomUUID())),
    put: (name, stream, maxBytes) => d.blobs.put(name, stream, { maxBytes }),
    remove: (name) => d.blobs.delete([name]),
    async checkKey(key) {
      const valid = validateObjectKey(key);
      if (!valid.ok) return valid.error;
      // A bucket that grants both needs no look: whether the key exists changes nothing (one
      // read fewer per upload; the commit checks again in its transaction either way).
      if (allow.create && allow.update) return undefined;
      const exists = await d.metadata.exists(bucket.name, key);
      return (exists ? allow.update : allow.create) ? undefined : accessMissing(bucket.name, exists, key);
    },
  });
  return commitUpload(d, bucket, { ...received, file });
}

/**
 * Records a stored blob as the newest version of its key (create or update access checked in
 * the same transaction as the insert); on any refusal or failure the blob is removed.
 */
export async function commitUpload(
  d: StorageDomain,
  bucket: Bucket,
  received: { key: string; blob: string; file: string; size: number; sha256: string; declaredType: string | undefined },
): Promise<{ key: string }> {
  const allow = { create: bucket.access.includes("create"), update: bucket.access.includes("update") };
  let outcome: Awaited<ReturnType<typeof d.metadata.commit>>;
  try {
    outcome = await d.metadata.commit(
      { bucket: bucket.name, key: received.key, file: received.file, size: received.size, contentType: contentTypeFor(received.declaredType, received.key), sha256: received.sha256 },
      allow,
    );
  } catch (e) {
    await d.blobs.delete([received.blob]).catch(() => undefined);
    throw e;
  }
  if (!outcome.ok) {
    await d.blobs.delete([received.blob]).catch(() => undefined);
    throw StorageFailure.from(accessMissing(bucket.name, outcome.exists, received.key));
  }
  return { key: versionedKey(outcome.row.version, outcome.row.key) };
}
