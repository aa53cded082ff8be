/**
 * What to answer for one stored file (or variant), decided before any byte is read: conditional
 * GET, one byte range, HEAD, and the headers of interface §4.4. Pure. Which HTTP status each
 * outcome is (200/206/304/416) is the routes' choice (routes/request.ts).
 */
import type { ByteRange } from "../../blobs/blob-store";
import type { Failure } from "../../../../shared/errors";
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

export type ReadOutcome = "whole" | "partial" | "not_modified" | "unsatisfiable";

export interface ReadPlan {
  outcome: ReadOutcome;
  headers: Record<string, string>;
  /** The bytes to send; undefined = no body (HEAD, 304, 416, an empty file). */
  bytes?: ByteRange;
  /** For an unsatisfiable range: why, to send as the error body. */
  refusal?: Failure;
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
  if (notModified(c.ifNoneMatch, file.etag)) return { outcome: "not_modified", headers };
  const { size } = file;
  const range = rangeStillValid(c.ifRange, file.etag) ? parseRange(c.range, size) : { kind: "full" as const };
  if (range.kind === "unsatisfiable") {
    headers["content-range"] = `bytes */${size}`;
    const refusal: Failure = { code: "range_not_satisfiable", message: `The range ${c.range} does not fit this ${size}-byte file: ask for one range inside bytes 0-${Math.max(0, size - 1)}.` };
    return { outcome: "unsatisfiable", headers, refusal };
  }
  headers["content-type"] = file.contentType;
  const [start, end] = range.kind === "partial" ? [range.start, range.end] : [0, size - 1];
  if (range.kind === "partial") headers["content-range"] = contentRange(range, size);
  headers["content-length"] = String(Math.max(0, end - start + 1));
  const outcome = range.kind === "partial" ? "partial" : "whole";
  if (c.head || size === 0) return { outcome, headers };
  return { outcome, headers, bytes: { start, end } };
}
