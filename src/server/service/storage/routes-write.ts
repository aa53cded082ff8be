/**
 * Write side: upload (endpoint 3) and the delete extension. Writes always need a key; the key
 * check, bucket and address checks all happen before the body is read.
 */
import fs from "node:fs";
import type { FastifyInstance } from "fastify";
import type { Failure } from "../../../shared/errors";
import { type DeleteResponse, type UploadResponse, parseObjectKey, validateObjectKey, versionedKey } from "../../../shared/storage";
import { HttpError, badRequest, notFound } from "../../http-error";
import { contentTypeFor } from "./content-type";
import { type StorageDeps, allowed, wildcard } from "./deps";
import { receiveUpload } from "./upload";

/** Room for multipart boundaries and part headers on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** After refusing an upload mid-body, how long to keep reading (and dropping) so the client sees the answer. */
const DRAIN_MS = 5_000;

const accessMissing = (bucket: string, exists: boolean, key: string): Failure => ({
  code: "forbidden",
  message: exists
    ? `"${key}" already exists in bucket "${bucket}", and the bucket does not grant update access to overwrite it.`
    : `"${key}" is a new key, and bucket "${bucket}" does not grant create access.`,
});

export function registerWriteRoutes(app: FastifyInstance, deps: StorageDeps): void {
  const { metadata, blobs } = deps;

  app.post("/v0/storage/object/:bucket", async (request): Promise<UploadResponse> => {
    const name = (request.params as { bucket: string }).bucket;
    const probe = deps.buckets.get(name);
    const bucket = allowed(deps, request, name, probe && !probe.access.includes("create") ? "update" : "create");
    const max = deps.ctx.config.maxUploadBytes;
    const declared = Number(request.headers["content-length"]);
    const allow = { create: bucket.access.includes("create"), update: bucket.access.includes("update") };
    let received: Awaited<ReturnType<typeof receiveUpload>>;
    try {
      if (Number.isFinite(declared) && declared > max + MULTIPART_OVERHEAD) {
        throw new HttpError("payload_too_large", `The upload is ${declared} bytes, over this service's limit of ${max} bytes (SERVICE_MAX_UPLOAD_BYTES); nothing was stored.`);
      }
      received = await receiveUpload(request.raw, {
        maxBytes: max,
        tmpPath: blobs.tmpPath,
        checkKey(key) {
          const valid = validateObjectKey(key);
          if (!valid.ok) return valid.error;
          return metadata.exists(bucket.name, key).then((exists) => ((exists ? allow.update : allow.create) ? undefined : accessMissing(bucket.name, exists, key)));
        },
      });
    } catch (e) {
      if (!request.raw.complete && !request.raw.destroyed) {
        // Read and drop the rest for a moment so the client gets the answer rather than a reset.
        // No "connection: close": Node would end the socket as soon as the answer is out, and a
        // client still streaming the body (the proxy relaying a browser upload) would then get
        // EPIPE instead of this answer. The socket is destroyed below if the body never ends.
        request.raw.resume();
        // Only if it is still unfinished: a drained connection may already serve the next request.
        setTimeout(() => {
          if (!request.raw.complete) request.raw.destroy();
        }, DRAIN_MS).unref();
      }
      throw e;
    }
    const file = blobs.newFileId();
    try {
      // Rename first, then the row: a crash in between leaves an orphan file (swept at start),
      // never a row pointing at nothing.
      await blobs.commit(received.tmp, bucket.name, file);
    } catch (e) {
      await fs.promises.rm(received.tmp, { force: true });
      throw e;
    }
    let outcome: Awaited<ReturnType<typeof metadata.commit>>;
    try {
      outcome = await metadata.commit(
        { bucket: bucket.name, key: received.key, file, size: received.size, contentType: contentTypeFor(received.declaredType, received.key), sha256: received.sha256 },
        allow,
      );
    } catch (e) {
      await blobs.remove(bucket.name, file);
      throw e;
    }
    if (!outcome.ok) {
      await blobs.remove(bucket.name, file);
      throw HttpError.from(accessMissing(bucket.name, outcome.exists, received.key));
    }
    return { key: versionedKey(outcome.row.version, outcome.row.key) };
  });

  app.delete("/v0/storage/object/:bucket/*", async (request): Promise<DeleteResponse> => {
    const bucket = allowed(deps, request, (request.params as { bucket: string }).bucket, "delete");
    const parsed = parseObjectKey(wildcard(request.params));
    if (!parsed.ok) throw HttpError.from(parsed.error);
    if (parsed.value.version !== undefined) {
      throw badRequest(`DELETE removes every version of a key: send "${parsed.value.key}" without the v${parsed.value.version}/ prefix.`);
    }
    // Rows first, then files: a crash in between leaves orphan files (swept), never dangling rows.
    const rows = await metadata.deleteAll(bucket.name, parsed.value.key);
    if (rows.length === 0) throw notFound(`There is no object "${parsed.value.key}" in bucket "${bucket.name}".`);
    await Promise.all(rows.map((r) => blobs.remove(bucket.name, r.file)));
    return { key: parsed.value.key, deletedVersions: rows.length };
  });
}
