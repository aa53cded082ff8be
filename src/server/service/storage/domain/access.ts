/** Who may do what in a bucket, from plain facts about the caller (no request object). */
import { StorageFailure, missing, noKey } from "./failure";
import { clientAddress } from "./address";
import { type Bucket, type Operation, authorize } from "./buckets";
import type { StorageDomain } from "./storage-domain";

export interface Requester {
  /** A valid x-api-key came with the request. */
  hasKey: boolean;
  /** The socket's peer address. */
  socketAddress: string | undefined;
  /** X-Forwarded-For as received (honoured only with SERVICE_TRUST_PROXY). */
  forwardedFor: string | string[] | undefined;
}

export function findBucket(d: StorageDomain, name: string): Bucket {
  const bucket = d.buckets.get(name);
  if (!bucket) throw missing(`There is no bucket "${name}"; buckets are configured in DATA_DIR/buckets.json.`);
  return bucket;
}

/** Finds the bucket and checks the caller may do `op` in it (throws the 401/403/404). */
export function allowed(d: StorageDomain, who: Requester, bucketName: string, op: Operation): Bucket {
  // Everything but reading a file needs a key whatever the bucket (interface §5.3), so a keyless
  // caller learns that first, not which bucket names exist.
  if (op !== "read" && !d.buckets.has(bucketName) && !who.hasKey) throw noKey();
  const bucket = findBucket(d, bucketName);
  const address = clientAddress(who.socketAddress, who.forwardedFor, d.trustProxy);
  const failure = authorize(bucket, op, { hasKey: who.hasKey, address });
  if (failure) throw StorageFailure.from(failure);
  return bucket;
}
