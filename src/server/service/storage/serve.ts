/**
 * Sends one stored file (or variant) from disk: conditional GET (304), one byte range (206/416),
 * HEAD, and the headers of interface §4.4. The file is opened before any header is sent, so a
 * version deleted in between is a clean 404 instead of a broken 200.
 */
import fs from "node:fs";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError, notFound } from "../../http-error";
import { notModified, rangeStillValid } from "./caching";
import { isActiveContent } from "./content-type";
import { contentRange, parseRange } from "./range";

export interface Servable {
  path: string;
  contentType: string;
  etag: string;
  cacheControl: string;
  lastModified: Date;
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(", ") : v);

export async function sendFile(request: FastifyRequest, reply: FastifyReply, file: Servable): Promise<FastifyReply> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file.path, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw notFound("The file was deleted while it was being requested.");
    throw e;
  }
  let owned = true;
  try {
    const { size } = await handle.stat();
    reply
      .header("accept-ranges", "bytes")
      .header("etag", file.etag)
      .header("cache-control", file.cacheControl)
      .header("last-modified", file.lastModified.toUTCString())
      .header("x-content-type-options", "nosniff")
      // w and h may come as request headers, so one URL can answer with different variants.
      .header("vary", "w, h");
    // Uploaded HTML or SVG opened directly must not run script in the app's origin.
    if (isActiveContent(file.contentType)) reply.header("content-security-policy", "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    if (notModified(header(request.headers["if-none-match"]), file.etag)) {
      return reply.code(304).send();
    }
    reply.header("content-type", file.contentType);
    const ifRange = header(request.headers["if-range"]);
    const range = rangeStillValid(ifRange, file.etag) ? parseRange(header(request.headers.range), size) : { kind: "full" as const };
    if (range.kind === "unsatisfiable") {
      reply.header("content-range", `bytes */${size}`);
      throw new HttpError("range_not_satisfiable", `The range ${header(request.headers.range)} does not fit this ${size}-byte file: ask for one range inside bytes 0-${Math.max(0, size - 1)}.`);
    }
    const [start, end] = range.kind === "partial" ? [range.start, range.end] : [0, size - 1];
    if (range.kind === "partial") reply.code(206).header("content-range", contentRange(range, size));
    reply.header("content-length", String(Math.max(0, end - start + 1)));
    if (request.method === "HEAD" || size === 0) return reply.send();
    owned = false;
    return reply.send(handle.createReadStream({ start, end, highWaterMark: 64 * 1024 }));
  } finally {
    if (owned) await handle.close();
  }
}
