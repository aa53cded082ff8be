/**
 * HEAD of one object: does a key exist (before an upload), and what is it (to open a key typed
 * in a bucket that cannot be listed). A HEAD, not a GET: nothing of the file is transferred.
 */
import { ApiError, api, apiFetch } from "../api-client";
import type { StorageItem } from "./listing.utils";
import { objectUrl } from "./thumb.utils";

/** The object's metadata, or undefined when the key has no version. */
export async function headObject(bucket: string, key: string): Promise<StorageItem | undefined> {
  try {
    const res = await apiFetch(objectUrl(bucket, key), { method: "HEAD", cache: "no-store" });
    const size = Number(res.headers.get("content-length"));
    const modified = res.headers.get("last-modified");
    return {
      key,
      size: Number.isFinite(size) ? size : undefined,
      contentType: res.headers.get("content-type") ?? undefined,
      etag: res.headers.get("etag") ?? undefined,
      lastModified: modified ? new Date(modified).toISOString() : undefined,
    };
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}

/**
 * Whether a key already has a version, through the proxy's /api/exists (a HEAD upstream): a
 * missing key is a 200 there, so Chromium prints no 404 in the console for every new upload.
 */
export async function objectExists(bucket: string, key: string): Promise<boolean> {
  const res = await api<{ exists: boolean }>(objectUrl(bucket, key).replace(/^\/api\//, "/api/exists/"), { cache: "no-store" });
  return res.exists;
}
