/**
 * Receives a multipart upload (interface §4.3): parts `key` then `file`, the file streamed into
 * the blob store (never the whole file in memory; busboy pauses the socket when the store is
 * slower). The key is checked as soon as its part arrives, before any byte of the file is
 * stored. On any failure, abort or size overrun the blob is gone before the promise rejects.
 * Works on Node's IncomingMessage, not on a framework's request.
 */
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import busboy from "busboy";
import { BlobTooLarge, type PutResult } from "../../blobs/blob-store";
import type { Failure } from "../../../../shared/errors";
import { HttpError, badRequest } from "../../../http-error";
import { SNIFF_BYTES, boundaryOf, partContentType } from "./part-headers";

export interface ReceivedFile {
  key: string;
  /** The blob the file was stored as. */
  blob: string;
  size: number;
  sha256: string;
  /** The file part's Content-Type header as sent; undefined when it had none. */
  declaredType: string | undefined;
}

/** The client went away mid-upload: nothing to answer, logged at info (issue 9.7). */
export class ClientAborted extends Error {}

export interface ReceiveOptions {
  maxBytes: number;
  /** A new blob name for the file. */
  blobName(): string;
  /** Stores a stream as the blob (the blob store's put); must leave nothing when it rejects. */
  put(name: string, body: Readable, maxBytes: number): Promise<PutResult>;
  /** Deletes a stored blob (the upload failed after the file was complete). */
  remove(name: string): Promise<void>;
  /** Called with the key part's value; a returned failure stops the upload. */
  checkKey(key: string): Failure | undefined | Promise<Failure | undefined>;
}

/** Plain fields (the key, or a small file sent without a filename) are held in memory: keep them small. */
const FIELD_LIMIT = 1024 * 1024;

const tooLarge = (max: number) =>
  new HttpError("payload_too_large", `The file is larger than this service's upload limit of ${max} bytes (SERVICE_MAX_UPLOAD_BYTES); nothing was stored.`);

export function receiveUpload(req: IncomingMessage, opts: ReceiveOptions): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        // busboy reports "limit" on reaching fileSize, so one byte more tells "exactly the limit" from "over it".
        limits: { fields: 10, fieldSize: FIELD_LIMIT, fieldNameSize: 100, files: 1, fileSize: opts.maxBytes + 1, parts: 20, headerPairs: 50 },
      });
    } catch {
      reject(badRequest("Send the upload as multipart/form-data (with a boundary) with a part named key and a part named file."));
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
      const err = !(reason instanceof HttpError) && !req.complete && (req.destroyed || req.readableAborted) ? new ClientAborted("upload interrupted: the client went away") : reason;
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
        if (key !== undefined) return fail(badRequest("The form has two key parts; send exactly one."));
        if (info.valueTruncated) return fail(badRequest("The key part is far too long; keys are at most 1024 bytes."));
        key = value;
        // The file part waits for this (write below): nothing is stored before the key passed.
        keyChecked = Promise.resolve()
          .then(() => opts.checkKey(value))
          .then(
            (problem) => {
              if (problem) fail(HttpError.from(problem));
              return !problem;
            },
            (e) => {
              fail(e as Error);
              return false;
            },
          );
      } else if (name === "file") {
        // A file sent as a plain field (no filename): accepted, within the field size limit.
        if (key === undefined) return fail(badRequest("Send the key part before the file part."));
        if (fileSeen) return fail(badRequest("The form has two file parts; send exactly one."));
        fileSeen = true;
        if (Buffer.byteLength(value) > opts.maxBytes) return fail(tooLarge(opts.maxBytes));
        if (info.valueTruncated) {
          return fail(new HttpError("payload_too_large", "A file sent as a plain form field is limited to 1 MiB: send it as a file part (with a filename)."));
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
        return fail(badRequest(`Unexpected file part "${name}": name the file part "file".`));
      }
      if (key === undefined) {
        stream.resume();
        return fail(badRequest("Send the key part before the file part, so the key can be checked before anything is stored."));
      }
      if (fileSeen) {
        stream.resume();
        return fail(badRequest("The form has two file parts; send exactly one."));
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
      bb.on(event, () => fail(badRequest("The form has too many parts: send just key and file.")));
    }
    bb.on("error", (e) => fail(badRequest(`The multipart body is malformed: ${(e as Error).message}.`)));
    bb.on("close", async () => {
      if (settled) return;
      if (key === undefined) return fail(badRequest('The form has no key part: add a field named "key" with the object key.'));
      if (!written || !blob) return fail(badRequest('The form has no file part: add the file as a part named "file".'));
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
