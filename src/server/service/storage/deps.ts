/** What the storage routes share: built once by index.ts, passed to each route file. */
import type { FastifyRequest } from "fastify";
import { HttpError, notFound, unauthorized } from "../../http-error";
import type { ServiceContext } from "../context";
import { clientAddress } from "./address";
import type { BlobStore } from "./blob-store";
import { type Bucket, type Operation, authorize } from "./buckets";
import type { Metadata } from "./metadata";
import type { Resizer } from "./resize";
import type { Keyring } from "./signing";

export interface StorageDeps {
  ctx: ServiceContext;
  buckets: Map<string, Bucket>;
  metadata: Metadata;
  blobs: BlobStore;
  keyring: Keyring;
  resizer: Resizer;
}

export function findBucket(deps: StorageDeps, name: string): Bucket {
  const bucket = deps.buckets.get(name);
  if (!bucket) throw notFound(`There is no bucket "${name}"; buckets are configured in DATA_DIR/buckets.json.`);
  return bucket;
}

/** Finds the bucket and checks the caller may do `op` in it (throws the 401/403/404). */
export function allowed(deps: StorageDeps, request: FastifyRequest, bucketName: string, op: Operation): Bucket {
  // Everything but reading a file needs a key whatever the bucket (interface §5.3), so a keyless
  // caller learns that first, not which bucket names exist.
  if (op !== "read" && !deps.buckets.has(bucketName) && request.apiKey.kind !== "valid") throw unauthorized();
  const bucket = findBucket(deps, bucketName);
  const address = clientAddress(request.socket.remoteAddress, request.headers["x-forwarded-for"], deps.ctx.config.trustProxy);
  const failure = authorize(bucket, op, { hasKey: request.apiKey.kind === "valid", address });
  if (failure) throw HttpError.from(failure);
  return bucket;
}

/** The `*` of a route is the object key, already percent-decoded once by the router. */
export const wildcard = (params: unknown) => (params as { "*": string })["*"];
