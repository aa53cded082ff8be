/**
 * Endpoint 3: upload. Writes always need a key; the key, bucket and address checks happen
 * before the body is read, and the object key before any byte of the file is stored.
 */
import type { FastifyInstance } from "fastify";
import type { UploadResponse } from "../../../../shared/storage";
import { HttpError } from "../../../http-error";
import { allowed } from "../domain/access";
import { ClientAborted } from "../domain/receive-upload";
import type { StorageDomain } from "../domain/storage-domain";
import { storeUpload, uploadOperation } from "../domain/store-upload";
import { bucketParam, requester } from "./request";

/** Room for multipart boundaries and part headers on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** After refusing an upload mid-body, how long to keep reading (and dropping) so the client sees the answer. */
const DRAIN_MS = 5_000;

export function registerUploadRoute(app: FastifyInstance, d: StorageDomain): void {
  app.post("/v0/storage/object/:bucket", async (request): Promise<UploadResponse> => {
    const name = bucketParam(request);
    const bucket = allowed(d, requester(request), name, uploadOperation(d.buckets.get(name)));
    const declared = Number(request.headers["content-length"]);
    try {
      if (Number.isFinite(declared) && declared > d.maxUploadBytes + MULTIPART_OVERHEAD) {
        throw new HttpError("payload_too_large", `The upload is ${declared} bytes, over this service's limit of ${d.maxUploadBytes} bytes (SERVICE_MAX_UPLOAD_BYTES); nothing was stored.`);
      }
      return await storeUpload(d, bucket, request.raw);
    } catch (e) {
      if (e instanceof ClientAborted) {
        // The client broke off: nobody to answer, nothing stored, nothing wrong with the service.
        request.log.info({ bucket: bucket.name }, "upload aborted by the client; nothing was stored");
        throw new HttpError("validation_error", "The upload was interrupted before it ended; nothing was stored.");
      }
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
  });
}
