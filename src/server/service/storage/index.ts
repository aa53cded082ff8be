/**
 * The Storage capability of the local service (issues 3 and 12): buckets from
 * DATA_DIR/buckets.json, object versions behind the metadata seam, bytes behind the blob seam
 * (disk or S3), signed URLs, resized variants under a byte budget. Start-up repairs what a crash
 * may have left. Routes (routes/) validate and reply; the domain (domain/) knows no HTTP.
 */
import type { FastifyInstance } from "fastify";
import { parseJsonText } from "../../../shared/json-text";
import { notUtf8 } from "../../json-request";
import type { MetaBucket } from "../../../shared/meta";
import { BlobError } from "../blobs/blob-store";
import { openBlobStore } from "../blobs/open";
import type { ServiceContext } from "../context";
import { loadBuckets, toMetaBucket } from "./domain/buckets";
import { StorageFailure } from "./domain/failure";
import { createResizeQueue } from "./domain/resize-queue";
import { seedSampleFiles } from "./domain/seed";
import { openKeyring } from "./domain/signing";
import type { StorageDomain } from "./domain/storage-domain";
import { sweepStorage } from "./domain/sweep";
import { createVariantCache } from "./domain/variant-cache";
import { openMetadata } from "./metadata";
import { openJobsStore } from "./metadata-jobs";
import { folderSelection } from "./domain/jobs/job-request.utils";
import { createJobRunner } from "./domain/jobs/run-jobs";
import { registerJobRoutes } from "./routes/jobs";
import { openSearchStore } from "./metadata-search";
import { registerSearchRoute } from "./routes/search";
import { registerDeleteRoute } from "./routes/delete";
import { toHttpError } from "./routes/http-failures";
import { registerListRoute } from "./routes/list";
import { registerReadRoute } from "./routes/read";
import { registerSignRoutes } from "./routes/sign";
import { registerUploadRoute } from "./routes/upload";
import { registerVersionRoutes } from "./routes/versions";
import { openUploadsStore } from "./metadata-uploads";
import { createResumableUploads } from "./domain/resumable-upload";
import { registerResumableRoutes } from "./routes/resumable";

export interface StorageModule {
  register(app: FastifyInstance): void;
  buckets(): MetaBucket[];
  close(): Promise<void>;
}

/** Resizes running at once: sharp uses several threads per resize already, on 2 cores. */
const RESIZE_CONCURRENCY = 2;

export async function createStorageModule(ctx: ServiceContext): Promise<StorageModule> {
  const { config } = ctx;
  const { buckets: list } = loadBuckets(config.dataDir);
  const buckets = new Map(list.map((b) => [b.name, b]));
  const metadata = await openMetadata(ctx.engine);
  const blobs = openBlobStore(config.blobStore, config.dataDir);
  const queue = createResizeQueue(RESIZE_CONCURRENCY, config.resizeQueue);
  const d: StorageDomain = {
    buckets,
    metadata,
    blobs,
    keyring: await openKeyring(config.signingKeysFile),
    variants: createVariantCache({
      blobs,
      queue,
      budgetBytes: config.variantCacheBytes,
      onKeepFailed: (err) => ctx.log.warn({ failure: err.failure }, `storage: a resized variant was answered but not kept: ${err.message}`),
    }),
    maxUploadBytes: config.maxUploadBytes,
    trustProxy: config.trustProxy,
    log: ctx.log,
    publicBaseUrl: ctx.publicBaseUrl,
  };

  try {
    const swept = await sweepStorage(d, config.sweepGraceSeconds);
    if (swept.mismatch) ctx.log.error(swept, `storage: start-up repair skipped: ${swept.mismatch}`);
    else if (swept.incomplete || swept.orphans || swept.missing) ctx.log.warn(swept, "storage: repaired after an unclean stop");
  } catch (e) {
    // An object store that is down or refusing at start-up: start anyway (storage requests answer
    // 502/503 until it is back, records work); the sweep runs at the next start.
    if (!(e instanceof BlobError) || (e.failure !== "unreachable" && e.failure !== "refused")) throw e;
    ctx.log.warn({ failure: e.failure }, `storage: start-up sweep skipped: ${e.message}`);
  }
  // Jobs left running by a stop (even a SIGKILL) go on from their last committed step.
  const jobs = await openJobsStore(ctx.engine);
  const search = await openSearchStore(ctx.engine, (msg) => ctx.log.warn({}, msg));
  // STORAGE_JOB_STEP (keys per committed step, default 200): smaller only to watch a job mid-way in tests.
  const runner = createJobRunner(d, jobs, { step: Number(process.env.STORAGE_JOB_STEP) || undefined });
  const resumed = await runner.resume();
  if (resumed > 0) ctx.log.info({ jobs: resumed }, "storage: resumed jobs left running");
  // Resumable upload sessions: idle for a day, swept with their parts (now, then hourly).
  const uploads = createResumableUploads(d, await openUploadsStore(ctx.engine));
  const sweepUploads = () =>
    uploads.sweep().then(
      (n) => n > 0 && ctx.log.info({ sessions: n }, "storage: swept upload sessions idle for a day"),
      (e) => ctx.log.warn({}, `storage: upload sessions not swept: ${(e as Error).message}`),
    );
  await sweepUploads();
  const uploadSweeper = setInterval(sweepUploads, 60 * 60 * 1000).unref();
  if (config.seed && (await metadata.state("seeded")) === undefined) {
    await seedSampleFiles(d);
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
        // JSON bodies (jobs, resumable starts) by the one rule the proxy checks them by
        // (shared/json-text.ts). Fastify's own parser refused a valid body with a "__proto__" key,
        // or one labelled charset=utf-16, as "not valid JSON"; the key is refused here by name.
        scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, bytes, done) => {
          const bad = notUtf8(bytes as Buffer);
          if (bad) return done(new StorageFailure("validation_error", bad), undefined);
          const read = parseJsonText((bytes as Buffer).toString("utf8"));
          if (!read.ok) return done(new StorageFailure("validation_error", read.message), undefined);
          if (hasProtoKey(read.value)) return done(new StorageFailure("validation_error", 'The request body has a "__proto__" key, which no storage request takes: remove it.'), undefined);
          done(null, read.value);
        });
        // Full disk, read-only disk, object store down: one mapping for every storage route;
        // anything else goes on to the service's own handler.
        scope.setErrorHandler((err, request, reply) => {
          const mapped = toHttpError(err, { where: blobs.kind, nothingStored: request.method === "POST" || request.method === "PUT", engine: ctx.engine });
          if (!mapped) throw err;
          if (!(err instanceof StorageFailure) && mapped !== err) request.log.warn({ failure: mapped.code }, `storage: ${(err as Error).message}`);
          if (mapped.retryAfter !== undefined) reply.header("retry-after", String(mapped.retryAfter));
          return reply.code(mapped.status).send(mapped.toBody());
        });
        registerReadRoute(scope, d);
        registerSignRoutes(scope, d);
        registerListRoute(scope, d, (bucket, prefix) => jobs.count(bucket, folderSelection(prefix)));
        registerUploadRoute(scope, d);
        registerDeleteRoute(scope, d);
        registerResumableRoutes(scope, d, uploads);
        registerJobRoutes(scope, d, runner, jobs);
        registerSearchRoute(scope, d, search);
        registerVersionRoutes(scope, d);
      });
    },
    buckets: () => list.map(toMetaBucket),
    close: async () => {
      clearInterval(uploadSweeper);
      runner.stop();
      await runner.idle();
      d.keyring.close();
      await blobs.close();
    },
  };
}

/** Whether a parsed JSON value has a "__proto__" key at any depth (JSON.parse keeps it as an own key; a later merge would not). */
function hasProtoKey(v: unknown): boolean {
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (x === null || typeof x !== "object") continue;
    if (!Array.isArray(x) && Object.prototype.hasOwnProperty.call(x, "__proto__")) return true;
    for (const c of Object.values(x)) stack.push(c);
  }
  return false;
}
