/**
 * The Storage capability of the local service (issue 3): buckets from DATA_DIR/buckets.json,
 * object versions in the engine's database (metadata.ts, above the engine seam), files under DATA_DIR/storage, signed URLs, resized variants.
 * Start-up repairs what a crash may have left: temp files, files without a row, rows without
 * a file.
 */
import type { FastifyInstance } from "fastify";
import type { MetaBucket } from "../../../shared/meta";
import type { ServiceContext } from "../context";
import { openBlobStore } from "./blob-store";
import { loadBuckets, toMetaBucket } from "./buckets";
import type { StorageDeps } from "./deps";
import { openMetadata } from "./metadata";
import { createResizer } from "./resize";
import { registerReadRoutes } from "./routes-read";
import { registerWriteRoutes } from "./routes-write";
import { seedSampleFiles } from "./seed";
import { openKeyring } from "./signing";

export interface StorageModule {
  register(app: FastifyInstance): void;
  buckets(): MetaBucket[];
  close(): Promise<void>;
}

export async function createStorageModule(ctx: ServiceContext): Promise<StorageModule> {
  const { buckets: list } = loadBuckets(ctx.config.dataDir);
  const buckets = new Map(list.map((b) => [b.name, b]));
  const metadata = await openMetadata(ctx.engine);
  const blobs = openBlobStore(ctx.config.dataDir, [...buckets.keys()]);

  for (const name of buckets.keys()) {
    const { orphans, missing } = blobs.sweep(name, await metadata.files(name));
    for (const file of missing) await metadata.removeFile(name, file);
    if (orphans || missing.length) ctx.log.warn({ bucket: name, orphans, missing: missing.length }, "storage: repaired after an unclean stop");
  }

  const deps: StorageDeps = { ctx, buckets, metadata, blobs, keyring: openKeyring(ctx.config.dataDir), resizer: createResizer() };
  if (ctx.config.seed && (await metadata.state("seeded")) === undefined) {
    await seedSampleFiles(deps);
    await metadata.setState("seeded", new Date().toISOString());
  }

  return {
    register(app) {
      app.register(async (scope) => {
        // Multipart bodies are left unread here and streamed by the upload route, so the 1 MiB
        // JSON body limit does not apply to them (SERVICE_MAX_UPLOAD_BYTES does).
        scope.addContentTypeParser("multipart/form-data", (_request, _payload, done) => done(null, undefined));
        // Any other type (multipart/mixed, application/octet-stream…) reaches the upload route
        // too, which says to send multipart/form-data, rather than Fastify's "send JSON".
        scope.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
        registerReadRoutes(scope, deps);
        registerWriteRoutes(scope, deps);
      });
    },
    buckets: () => list.map(toMetaBucket),
    close: async () => {},
  };
}
