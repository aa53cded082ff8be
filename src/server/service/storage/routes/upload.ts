/**
 * Endpoint 3: upload. Writes always need a key; the key, bucket and address checks happen
 * before the body is read, and the object key before any byte of the file is stored.
 *
 * The multipart body (interface §4.3) is parsed here, in the transport: parts `key` then
 * `file`, the file streamed into the blob store (never the whole file in memory; busboy pauses
 * the socket when the store is slower). The key is checked as soon as its part arrives. On any
 * failure, abort or size overrun the blob is gone before the promise rejects.
 */
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import busboy from "busboy";
import type { FastifyInstance } from "fastify";
import type { UploadResponse } from "../../../../shared/storage";
import { BlobTooLarge } from "../../blobs/blob-store";
import { HttpError } from "../../../http-error";
import { allowed } from "../domain/access";
import { StorageFailure, invalid } from "../domain/failure";
import { SNIFF_BYTES, boundaryOf, partContentType } from "../domain/part-headers";
import type { StorageDomain } from "../domain/storage-domain";
import { type ReceiveOptions, type ReceivedFile, storeUpload, uploadOperation } from "../domain/store-upload";
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
      return await storeUpload(d, bucket, (opts) => receiveUpload(request.raw, opts));
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

/** The client went away mid-upload: nothing to answer, logged at info (issue 9.7). */
class ClientAborted extends Error {}

/** Plain fields (the key, or a small file sent without a filename) are held in memory: keep them small. */
const FIELD_LIMIT = 1024 * 1024;

const tooLarge = (max: number) =>
  new StorageFailure("payload_too_large", `The file is larger than this service's upload limit of ${max} bytes (SERVICE_MAX_UPLOAD_BYTES); nothing was stored.`);

function receiveUpload(req: IncomingMessage, opts: ReceiveOptions): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        // busboy reports "limit" on reaching fileSize, so one byte more tells "exactly the limit" from "over it".
        limits: { fields: 10, fieldSize: FIELD_LIMIT, fieldNameSize: 100, files: 1, fileSize: opts.maxBytes + 1, parts: 20, headerPairs: 50 },
      });
    } catch {
      reject(invalid("Send the upload as multipart/form-data (with a boundary) with a part named key and a part named file."));
      return;
    }
    // The start of the body, to read the file part's own Content-Type header (see part-headers.ts).
    // Registered before the pipe, so the chunk that makes busboy emit the part is already here.
    const boundary = boundaryOf(req.headers["content-type"]);
    const head: Buffer[] = [];
    let headBytes = 0;
    const keepHead = (chunk: Buffer) => {
      head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
      headBytes += head[head.length - 1].length;
      if (headBytes >= SNIFF_BYTES) req.off("data", keepHead);
    };
    if (boundary) req.on("data", keepHead);
    const declared = (busboyType: string): string | undefined => {
      const sent = boundary ? partContentType(Buffer.concat(head), boundary, "file") : undefined;
      if (sent !== undefined) return sent ?? undefined;
      // Not found in the kept start: busboy's type, whose text/plain may mean "none was sent".
      return busboyType === "text/plain" ? undefined : busboyType;
    };

    let key: string | undefined;
    let fileSeen = false;
    let blob: string | undefined;
    let keyChecked: Promise<boolean> = Promise.resolve(true);
    let written: Promise<{ size: number; sha256: string; declaredType: string | undefined }> | undefined;
    let fileStream: NodeJS.ReadableStream & { destroy?(err?: Error): void } | undefined;
    let settled = false;

    const fail = (reason: Error) => {
      if (settled) return;
      settled = true;
      // Whatever broke first, a body cut off by the client is the client's doing.
      const err = !(reason instanceof StorageFailure) && !req.complete && (req.destroyed || req.readableAborted) ? new ClientAborted("upload interrupted: the client went away") : reason;
      req.unpipe(bb);
      fileStream?.destroy?.(err);
      const cleanup = async () => {
        // A put that failed left nothing; one that finished before the failure is removed here.
        const done = await written?.catch(() => undefined);
        if (done && blob) await opts.remove(blob);
      };
      cleanup().then(
        () => reject(err),
        () => reject(err),
      );
    };

    const write = (source: Readable, declaredType: string | undefined, truncated: () => boolean) => {
      const name = (blob = opts.blobName());
      written = keyChecked.then((passed) => {
        if (!passed || settled) {
          source.resume();
          throw new Error("upload refused before the file was stored");
        }
        return opts.put(name, source, opts.maxBytes);
      }).then(({ size, sha256 }) => {
        if (truncated()) throw tooLarge(opts.maxBytes);
        return { size, sha256, declaredType };
      });
      written.catch((e) => {
        if (e instanceof BlobTooLarge) return fail(tooLarge(opts.maxBytes));
        fail(e instanceof Error ? e : new Error(String(e)));
      });
    };

    bb.on("field", (name, value, info) => {
      if (settled) return;
      if (name === "key") {
        if (key !== undefined) return fail(invalid("The form has two key parts; send exactly one."));
        if (info.valueTruncated) return fail(invalid("The key part is far too long; keys are at most 1024 bytes."));
        key = value;
        // The file part waits for this (write below): nothing is stored before the key passed.
        keyChecked = Promise.resolve()
          .then(() => opts.checkKey(value))
          .then(
            (problem) => {
              if (problem) fail(StorageFailure.from(problem));
              return !problem;
            },
            (e) => {
              fail(e as Error);
              return false;
            },
          );
      } else if (name === "file") {
        // A file sent as a plain field (no filename): accepted, within the field size limit.
        if (key === undefined) return fail(invalid("Send the key part before the file part."));
        if (fileSeen) return fail(invalid("The form has two file parts; send exactly one."));
        fileSeen = true;
        if (Buffer.byteLength(value) > opts.maxBytes) return fail(tooLarge(opts.maxBytes));
        if (info.valueTruncated) {
          return fail(new StorageFailure("payload_too_large", "A file sent as a plain form field is limited to 1 MiB: send it as a file part (with a filename)."));
        }
        write(Readable.from([Buffer.from(value, "utf8")]), declared(info.mimeType), () => false);
      }
    });

    bb.on("file", (name, stream, info) => {
      if (settled) {
        stream.resume();
        return;
      }
      if (name !== "file") {
        stream.resume();
        return fail(invalid(`Unexpected file part "${name}": name the file part "file".`));
      }
      if (key === undefined) {
        stream.resume();
        return fail(invalid("Send the key part before the file part, so the key can be checked before anything is stored."));
      }
      if (fileSeen) {
        stream.resume();
        return fail(invalid("The form has two file parts; send exactly one."));
      }
      fileSeen = true;
      fileStream = stream;
      // fail() destroys the part with the reason; before the put pipes it, nobody else listens.
      stream.on("error", () => undefined);
      let limited = false;
      stream.on("limit", () => {
        limited = true;
        fail(tooLarge(opts.maxBytes));
      });
      write(stream, declared(info.mimeType), () => limited);
    });

    for (const event of ["partsLimit", "filesLimit", "fieldsLimit"] as const) {
      bb.on(event, () => fail(invalid("The form has too many parts: send just key and file.")));
    }
    bb.on("error", (e) => fail(invalid(`The multipart body is malformed: ${(e as Error).message}.`)));
    bb.on("close", async () => {
      if (settled) return;
      if (key === undefined) return fail(invalid('The form has no key part: add a field named "key" with the object key.'));
      if (!written || !blob) return fail(invalid('The form has no file part: add the file as a part named "file".'));
      try {
        const done = await written;
        if (settled) return;
        settled = true;
        resolve({ key, blob: blob!, ...done });
      } catch {
        // fail() has already run through written's rejection.
      }
    });

    // Not stream.pipeline: on a parse error that would destroy the socket before the 400 is sent.
    req.on("error", (e) => fail(new ClientAborted(`upload interrupted: ${e.message}`)));
    req.on("close", () => {
      if (!req.complete) fail(new ClientAborted("upload interrupted: the client went away"));
    });
    req.pipe(bb);
  });
}
