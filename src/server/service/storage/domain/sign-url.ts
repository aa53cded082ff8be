/** Signed URLs (interface §4.5, endpoints 5 and 6): make one for a version, check one. */
import { encodeKeyPath, versionedKey } from "../../../../shared/storage";
import { StorageFailure } from "./failure";
import { findBucket } from "./access";
import { type Bucket, authorize } from "./buckets";
import type { ObjectRow } from "../metadata";
import type { StorageDomain } from "./storage-domain";

export async function signedUrl(d: StorageDomain, bucket: Bucket, row: ObjectRow, lifetimeSeconds: number): Promise<string> {
  const expires = Math.floor(Date.now() / 1000) + lifetimeSeconds;
  const vkey = versionedKey(row.version, row.key);
  const { keyPairId, signature } = await d.keyring.sign({ bucket: bucket.name, versionedKey: vkey, expires });
  const query = new URLSearchParams({ Expires: String(expires), "Key-Pair-Id": keyPairId, Signature: signature });
  const base = d.publicBaseUrl().replace(/\/+$/, "");
  return `${base}/v0/storage/sign/${encodeURIComponent(bucket.name)}/${encodeKeyPath(vkey)}?${query}`;
}

/**
 * Checks a signed URL's query for a bucket and raw (still versioned) key. The signature is
 * checked before anything else: a tampered bucket or key is a 403, not a 400 or 404.
 */
export async function verifySigned(d: StorageDomain, bucketName: string, rawKey: string, query: Record<string, unknown>): Promise<{ bucket: Bucket; expires: number }> {
  const verified = await d.keyring.verify(query, { bucket: bucketName, versionedKey: rawKey });
  if (!verified.ok) throw StorageFailure.from(verified.error);
  const bucket = findBucket(d, bucketName);
  const failure = authorize(bucket, "read", { hasKey: false, address: undefined, signed: true });
  if (failure) throw StorageFailure.from(failure);
  return { bucket, expires: verified.value.expires };
}
