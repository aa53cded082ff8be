/**
 * What the storage domain works with, built once at start-up by ../index.ts: buckets, the
 * metadata seam, the blob seam, the key pairs and the variant cache. No HTTP framework here;
 * the routes translate requests into calls on the modules of this folder.
 */
import type { BlobStore } from "../../blobs/blob-store";
import type { Metadata } from "../metadata";
import type { Bucket } from "./buckets";
import type { Keyring } from "./signing";
import type { VariantCache } from "./variant-cache";

/** The few logger calls the domain makes (pino's shape). */
export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface StorageDomain {
  buckets: Map<string, Bucket>;
  metadata: Metadata;
  blobs: BlobStore;
  keyring: Keyring;
  variants: VariantCache;
  maxUploadBytes: number;
  trustProxy: boolean;
  log: Log;
  /** Absolute base URL for signed URLs. */
  publicBaseUrl(): string;
}

/** Blob names: chosen by the service (random file ids), never derived from an object key. */
export const objectBlob = (bucket: string, file: string) => `objects/${bucket}/${file}`;
export const variantPrefix = (bucket: string, file: string) => `variants/${bucket}/${file}/`;
