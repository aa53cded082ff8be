/**
 * Cache-Control and conditional requests for served files (decisions §7): a versioned key in a
 * public bucket never changes, so it is cached for a year; an unversioned one may change at any
 * upload, so it is revalidated every time (the strong ETag makes that a cheap 304).
 */
import type { BucketPermission } from "../../../../shared/meta";

export const IMMUTABLE = "public, max-age=31536000, immutable";

export function cacheControlFor(opts: { permission: BucketPermission; versioned: boolean; signedExpires?: number; now?: number }): string {
  if (opts.signedExpires !== undefined) {
    // A signed URL is a private capability: cache it for no longer than it stays valid.
    const left = Math.max(0, Math.floor(opts.signedExpires - (opts.now ?? Date.now() / 1000)));
    return `private, max-age=${left}`;
  }
  if (opts.permission !== "public") return "private";
  return opts.versioned ? IMMUTABLE : "no-cache";
}

/** If-None-Match (weak comparison, RFC 9110 §13.1.2): true when the client's copy is current. */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => strip(t) === strip(etag));
}

/** If-Range: honour Range only when the validator is our current strong ETag. */
export function rangeStillValid(ifRange: string | undefined, etag: string): boolean {
  return ifRange === undefined || ifRange.trim() === etag;
}
