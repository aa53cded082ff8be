/**
 * What to answer for one stored file (or variant), decided before any byte is read: conditional
 * GET (304), one byte range (206/416), HEAD, and the headers of interface §4.4. Pure.
 */
import type { ByteRange } from "../../blobs/blob-store";
import { HttpError } from "../../../http-error";
import { notModified, rangeStillValid } from "./caching";
import { isActiveContent } from "./content-type";
import { contentRange, parseRange } from "./range";

export interface FileFacts {
  size: number;
  contentType: string;
  etag: string;
  cacheControl: string;
  lastModified: Date;
}

export interface Conditions {
  ifNoneMatch?: string;
  ifRange?: string;
  range?: string;
  head: boolean;
}

export interface ReadPlan {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  /** The bytes to send; undefined = no body (HEAD, 304, 416, an empty file). */
  bytes?: ByteRange;
  /** For a 416: the error body to send. */
  error?: HttpError;
}

export function planRead(file: FileFacts, c: Conditions): ReadPlan {
  const headers: Record<string, string> = {
    "accept-ranges": "bytes",
    etag: file.etag,
    "cache-control": file.cacheControl,
    "last-modified": file.lastModified.toUTCString(),
    "x-content-type-options": "nosniff",
    // w and h may come as request headers, so one URL can answer with different variants.
    vary: "w, h",
  };
  // Uploaded HTML or SVG opened directly must not run script in the app's origin.
  if (isActiveContent(file.contentType)) headers["content-security-policy"] = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";
  if (notModified(c.ifNoneMatch, file.etag)) return { status: 304, headers };
  const { size } = file;
  const range = rangeStillValid(c.ifRange, file.etag) ? parseRange(c.range, size) : { kind: "full" as const };
  if (range.kind === "unsatisfiable") {
    headers["content-range"] = `bytes */${size}`;
    const error = new HttpError("range_not_satisfiable", `The range ${c.range} does not fit this ${size}-byte file: ask for one range inside bytes 0-${Math.max(0, size - 1)}.`);
    return { status: 416, headers, error };
  }
  headers["content-type"] = file.contentType;
  const [start, end] = range.kind === "partial" ? [range.start, range.end] : [0, size - 1];
  if (range.kind === "partial") headers["content-range"] = contentRange(range, size);
  headers["content-length"] = String(Math.max(0, end - start + 1));
  const status = range.kind === "partial" ? 206 : 200;
  if (c.head || size === 0) return { status, headers };
  return { status, headers, bytes: { start, end } };
}
