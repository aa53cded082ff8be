/** Picks the blob backend named by the configuration; nothing above this file asks which one it is. */
import path from "node:path";
import type { BlobStore } from "./blob-store";
import { openDiskStore } from "./disk";
import { openS3Store } from "./s3";
import type { BlobStoreConfig } from "./storage-url";

export function openBlobStore(config: BlobStoreConfig, dataDir: string): BlobStore {
  return config.kind === "s3" ? openS3Store(config) : openDiskStore(path.join(dataDir, "storage"));
}
