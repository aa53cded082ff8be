/**
 * Resumable uploads over HTTP (issue 22.5; the protocol is in domain/resumable-upload.ts):
 *   POST   /v0/storage/uploads/{bucket}                  {key, size, contentType?} → {id, partSize}
 *   PUT    /v0/storage/uploads/{bucket}/{id}/parts/{n}   raw bytes → {n, size}
 *   GET    /v0/storage/uploads/{bucket}/{id}             → {key, size, partSize, parts}
 *   POST   /v0/storage/uploads/{bucket}/{id}/complete    → {key: "v<ts>/<key>", size}
 *   DELETE /v0/storage/uploads/{bucket}/{id}             → 204
 * Every one needs the key and the bucket's write access, like a one-request upload; a session
 * started under an owner (UPLOAD_OWNER_HEADER, set by the proxy) answers only that owner.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { type ResumableStart, type ResumableStatus, UPLOAD_OWNER_HEADER } from "../../../../shared/storage";
import { HttpError } from "../../../http-error";
import { allowed } from "../domain/access";
import { StorageFailure } from "../domain/failure";
import type { ResumableUploads, StartRequest } from "../domain/resumable-upload";
import type { StorageDomain } from "../domain/storage-domain";
import { uploadOperation } from "../domain/store-upload";
import { bucketParam, requester } from "./request";

/** After refusing a part before reading it, how long to read and drop the rest so the client sees the answer. */
const DRAIN_MS = 5_000;

type Params = { bucket: string; id: string; n: string };

export function registerResumableRoutes(app: FastifyInstance, d: StorageDomain, uploads: ResumableUploads): void {
  const writable = (request: FastifyRequest) => {
    const name = bucketParam(request);
    return allowed(d, requester(request), name, uploadOperation(d.buckets.get(name)));
  };
  const id = (request: FastifyRequest) => (request.params as Params).id;
  const owner = (request: FastifyRequest) => {
    const v = request.headers[UPLOAD_OWNER_HEADER];
    return typeof v === "string" && v ? v.slice(0, 320) : undefined;
  };

  app.post("/v0/storage/uploads/:bucket", async (request): Promise<ResumableStart> => {
    const bucket = writable(request);
    const body = request.body;
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      throw new HttpError("validation_error", 'Send a JSON object {"key": "<folder/name>", "size": <bytes>, "contentType": "<type>"} (content-type application/json) to start an upload.');
    }
    return uploads.start(bucket, body as StartRequest, owner(request));
  });

  app.get("/v0/storage/uploads/:bucket/:id", async (request): Promise<ResumableStatus> => uploads.status(writable(request), id(request), owner(request)));

  app.put("/v0/storage/uploads/:bucket/:id/parts/:n", async (request) => {
    const raw = request.raw;
    try {
      const bucket = writable(request);
      const n = (request.params as Params).n;
      // Written as a number is written: "01" is not part 1 (review 49a #6).
      if (!/^[1-9]\d{0,4}$/.test(n)) throw new HttpError("validation_error", `The part number must be a whole number from 1, without leading zeros; "${n.slice(0, 20)}" is not.`);
      if (request.body !== undefined) {
        throw new HttpError("validation_error", "Send the part's bytes as the raw body (content-type application/octet-stream), not as JSON or a form.");
      }
      const length = raw.headers["content-length"] === undefined ? undefined : Number(raw.headers["content-length"]);
      return await uploads.putPart(bucket, id(request), Number(n), raw, length, owner(request));
    } catch (e) {
      // A part refused for its length (more bytes than it may hold, no Content-Length sent) ends
      // the reading itself: said as that, not as the client breaking off (review 57a #5).
      const refused = e instanceof StorageFailure && e.code === "validation_error";
      if (!refused && !raw.complete && (raw.destroyed || raw.readableAborted)) {
        // The client broke off mid-part: nobody to answer; the part stays unacknowledged.
        request.log.info({ bucket: bucketParam(request) }, "upload part interrupted by the client; it was not stored");
        throw new HttpError("validation_error", "The part was interrupted before it ended; it was not stored.");
      }
      if (!raw.complete) {
        // Refused before (or while) reading: drop the rest for a moment so the client gets the answer, not a reset.
        raw.resume();
        setTimeout(() => {
          if (!raw.complete) raw.destroy();
        }, DRAIN_MS).unref();
      }
      throw e;
    }
  });

  app.post("/v0/storage/uploads/:bucket/:id/complete", async (request) => uploads.complete(writable(request), id(request), owner(request)));

  app.delete("/v0/storage/uploads/:bucket/:id", async (request, reply) => {
    await uploads.abort(writable(request), id(request), owner(request));
    return reply.code(204).send();
  });
}
