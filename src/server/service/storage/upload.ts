/**
 * Receives a multipart upload (interface §4.3): parts `key` then `file`, streamed through a
 * sha256 into a temp file (never the whole file in memory; busboy pauses the socket when the
 * disk is slower). The key is checked as soon as its part arrives, before any byte of the file
 * touches the disk. On any failure, abort or size overrun the temp file is gone before the
 * promise rejects.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import type { IncomingMessage } from "node:http";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import type { Failure } from "../../../shared/errors";
import { HttpError, badRequest } from "../../http-error";
import { SNIFF_BYTES, boundaryOf, partContentType } from "./part-headers";

export interface ReceivedFile {
  key: string;
  tmp: string;
  size: number;
  sha256: string;
  /** The file part's Content-Type header as sent; undefined when it had none. */
  declaredType: string | undefined;
}

export interface ReceiveOptions {
  maxBytes: number;
  tmpPath(): string;
  /**
   * Called with the key part's value; a returned failure stops the upload (the file part, if
   * it started meanwhile, is dropped and its temp file removed).
   */
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
    let tmp: string | undefined;
    let written: Promise<{ size: number; sha256: string; declaredType: string | undefined }> | undefined;
    let fileStream: NodeJS.ReadableStream & { destroy?(err?: Error): void } | undefined;
    let settled = false;
    let keyChecked: Promise<unknown> = Promise.resolve();

    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(bb);
      fileStream?.destroy?.(err);
      const cleanup = async () => {
        await written?.catch(() => undefined);
        if (tmp) await fs.promises.rm(tmp, { force: true });
      };
      cleanup().then(
        () => reject(err),
        () => reject(err),
      );
    };

    const write = (source: AsyncIterable<Buffer> | NodeJS.ReadableStream, declaredType: string | undefined, truncated: () => boolean) => {
      tmp = opts.tmpPath();
      const hash = createHash("sha256");
      let size = 0;
      const target = tmp;
      written = pipeline(
        source,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            hash.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        // flush: fsync before close, so an acknowledged upload survives more than a process crash.
        fs.createWriteStream(target, { flags: "wx", flush: true }),
      ).then(() => {
        if (truncated()) throw tooLarge(opts.maxBytes);
        return { size, sha256: hash.digest("hex"), declaredType };
      });
      written.catch((e) => fail(e instanceof HttpError ? e : new Error(`upload interrupted: ${(e as Error).message}`)));
    };

    bb.on("field", (name, value, info) => {
      if (settled) return;
      if (name === "key") {
        if (key !== undefined) return fail(badRequest("The form has two key parts; send exactly one."));
        if (info.valueTruncated) return fail(badRequest("The key part is far too long; keys are at most 1024 bytes."));
        const problem = opts.checkKey(value);
        if (problem && !(problem instanceof Promise)) return fail(HttpError.from(problem));
        key = value;
        // A metadata lookup is asynchronous: the file part waits for its answer before anything is stored.
        keyChecked = Promise.resolve(problem).then(
          (p) => p && fail(HttpError.from(p)),
          (e: Error) => fail(e),
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
        write([Buffer.from(value, "utf8")] as unknown as AsyncIterable<Buffer>, declared(info.mimeType), () => false);
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
      // fail() destroys the part with its error, maybe before write() piped it anywhere (the key
      // check is still pending): without a listener that error would be an uncaught exception.
      stream.on("error", () => undefined);
      let limited = false;
      stream.on("limit", () => {
        limited = true;
        fail(tooLarge(opts.maxBytes));
      });
      void keyChecked.then(() => {
        if (settled) stream.resume();
        else write(stream, declared(info.mimeType), () => limited);
      });
    });

    for (const event of ["partsLimit", "filesLimit", "fieldsLimit"] as const) {
      bb.on(event, () => fail(badRequest("The form has too many parts: send just key and file.")));
    }
    bb.on("error", (e) => fail(badRequest(`The multipart body is malformed: ${(e as Error).message}.`)));
    bb.on("close", async () => {
      if (settled) return;
      if (key === undefined) return fail(badRequest('The form has no key part: add a field named "key" with the object key.'));
      if (!written || !tmp) return fail(badRequest('The form has no file part: add the file as a part named "file".'));
      try {
        await keyChecked;
        const done = await written;
        if (settled) return;
        settled = true;
        resolve({ key, tmp, ...done });
      } catch {
        // fail() has already run through written's rejection.
      }
    });

    // Not stream.pipeline: on a parse error that would destroy the socket before the 400 is sent.
    req.on("error", (e) => fail(new Error(`upload interrupted: ${e.message}`)));
    req.on("close", () => {
      if (!req.complete) fail(new Error("upload interrupted: the client went away"));
    });
    req.pipe(bb);
  });
}
