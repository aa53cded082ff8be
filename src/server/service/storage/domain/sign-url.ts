/** Signed URLs (interface §4.5, endpoints 5 and 6): make one for a version, check one. */
import type { Result } from "../../../../shared/errors";
import { encodeKeyPath, type ParsedObjectKey, type SignManyResponse, versionedKey } from "../../../../shared/storage";
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
 * Signed URLs of many keys, in the order asked: the newest versions read in one go (a versioned
 * key that is not the newest is looked up alone); a key with no file, or no key at all, says why.
 */
export async function signedUrls(d: StorageDomain, bucket: Bucket, keys: { asked: string; parsed: Result<ParsedObjectKey> }[], lifetimeSeconds: number): Promise<SignManyResponse["items"]> {
  const plain = [...new Set(keys.flatMap((k) => (k.parsed.ok ? [k.parsed.value.key] : [])))];
  const latest = await d.metadata.latestOf(bucket.name, plain);
  const items: SignManyResponse["items"] = [];
  for (const { asked, parsed } of keys) {
    if (!parsed.ok) {
      items.push({ key: asked, error: parsed.error.code, message: parsed.error.message });
      continue;
    }
    const { key, version } = parsed.value;
    const newest = latest.get(key);
    const row = version === undefined || newest?.version === version ? newest : await d.metadata.version(bucket.name, key, version);
    if (!row) {
      items.push({ key: asked, error: "not_found", message: `There is no object ${version === undefined ? `"${key}"` : `version v${version} of "${key}"`} in bucket "${bucket.name}".` });
      continue;
    }
    items.push({ key: asked, url: await signedUrl(d, bucket, row, lifetimeSeconds) });
  }
  return items;
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
