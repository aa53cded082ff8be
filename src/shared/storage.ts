/**
 * Storage contract shared by the local service, the proxy and the web app: the object-key rules
 * of decisions §7 (so the browser can refuse a bad key before uploading anything), versioned
 * keys, and the response shapes of upload, sign, list and delete.
 */
import { type Result, fail, ok } from "./errors";

export const MAX_KEY_BYTES = 1024;
/** Resize bounds of decisions §7 (w and h). */
export const MIN_RESIZE = 1;
export const MAX_RESIZE = 4096;
/**
 * The sizes the service keeps resized variants of (issue 9.3): a box whose sides are on this
 * ladder (or unset) is cached; any other size is resized each time. The web app snaps its
 * thumbnail and preview sizes up to it.
 */
// Half steps above 512 (768, 1536): a lightbox drawn at 1228×590 asked for 2048×1024, 2.9 times
// the pixels it showed (review 29b #12); now 1536×768.
export const RESIZE_LADDER = [64, 128, 256, 512, 768, 1024, 1536, 2048] as const;
/**
 * The rung a client should ask for to draw `px` device pixels: the smallest ladder size at least
 * that large (the top one past it), so what it asks for is kept in the service's variant cache.
 * The image is fitted inside the box, so a larger box never draws it smaller than asked.
 */
export function snapToLadder(px: number): number {
  return RESIZE_LADDER.find((rung) => rung >= px) ?? RESIZE_LADDER[RESIZE_LADDER.length - 1];
}
/** Signed URL lifetime (interface §4.5) and the `expiresIn` extension's bounds. */
export const DEFAULT_SIGNED_URL_SECONDS = 3600;
export const MAX_SIGNED_URL_SECONDS = 604_800;
/** Listing page size: default and maximum. */
export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;

const VERSION_PREFIX = /^v(\d+)\//;
// C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex -- matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// An escaped ".", "/", "\" or NUL inside a key (also double-escaped, %252f) is refused: a layer in
// between (browser, proxy, router) could decode it once more and turn `%2e%2e%2f` into `../`.
// Other escapes are ordinary characters: a file may well be called `Invoice%202024.pdf`.
const DANGEROUS_ESCAPE = /%(25)*(2e|2f|5c|00)/i;

// In u-mode a proper surrogate pair is one code point, so only a lone half matches.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** Bytes of UTF-8 (object keys are limited in bytes). */
export const utf8Length = (s: string) => new TextEncoder().encode(s).length;

/**
 * Checks an unversioned object key against decisions §7. The message says what to fix, so it
 * can be shown as is next to the key field of an upload form.
 */
export function validateObjectKey(key: string): Result<string> {
  if (typeof key !== "string" || key.length === 0) return fail("validation_error", "The object key is empty: give a file name or folder/file path.");
  if (LONE_SURROGATE.test(key)) return fail("validation_error", "The object key is not valid UTF-8 (it contains a lone surrogate).");
  // What a decoder puts in place of bytes that are not UTF-8 (a multipart field, a path): the key
  // sent was not the key that would be stored (review 47a #3). A U+FFFD typed on purpose is refused too.
  if (key.includes("\ufffd")) return fail("validation_error", "The object key is not valid UTF-8 (it has bytes that decode to U+FFFD, �): send the key as UTF-8.");
  const bytes = utf8Length(key);
  if (bytes > MAX_KEY_BYTES) return fail("validation_error", `The object key is ${bytes} bytes long; at most ${MAX_KEY_BYTES} bytes of UTF-8 are allowed.`);
  if (CONTROL.test(key)) return fail("validation_error", "The object key contains a control character (such as NUL, tab or newline); remove it.");
  if (key.includes("\\")) return fail("validation_error", "The object key contains a backslash; use / to separate folders.");
  if (key.startsWith("/")) return fail("validation_error", "The object key starts with /; keys are relative to the bucket, so drop the leading slash.");
  if (DANGEROUS_ESCAPE.test(key)) return fail("validation_error", "The object key contains a percent-encoded . / \\ or NUL (such as %2F or %2e); send the key decoded.");
  if (VERSION_PREFIX.test(key)) return fail("validation_error", "The object key starts with v<digits>/, which is reserved for versions; rename its first folder.");
  for (const segment of key.split("/")) {
    if (segment === "") return fail("validation_error", "The object key has an empty folder name (// or a trailing /); remove it.");
    if (segment === "." || segment === "..") return fail("validation_error", `The object key has a "${segment}" segment; folder names cannot be . or ..`);
  }
  return ok(key);
}

export interface ParsedObjectKey {
  /** The unversioned key. */
  key: string;
  /** The version timestamp, when the key named one. */
  version?: number;
}

/** Splits `v<timestamp>/<key>` (a versioned key) or validates a plain key. */
export function parseObjectKey(raw: string): Result<ParsedObjectKey> {
  const m = VERSION_PREFIX.exec(raw);
  if (m) {
    const version = Number(m[1]);
    if (!Number.isSafeInteger(version)) return fail("validation_error", "The version in the key is too large.");
    const rest = validateObjectKey(raw.slice(m[0].length));
    return rest.ok ? ok({ key: rest.value, version }) : rest;
  }
  const plain = validateObjectKey(raw);
  return plain.ok ? ok({ key: plain.value }) : plain;
}

export const versionedKey = (version: number, key: string) => `v${version}/${key}`;

/** Encodes a key for a URL path: each folder segment escaped, the slashes kept. */
export const encodeKeyPath = (key: string) => key.split("/").map(encodeURIComponent).join("/");

/** POST /v0/storage/object/{bucket} */
export interface UploadResponse {
  key: string;
}

/**
 * Resumable uploads (the local service's extension, capability `resumable`): POST
 * /v0/storage/uploads/{bucket} with {key, size, contentType?} starts a session; PUT
 * …/{id}/parts/{n} sends part n (1-based, exactly partSize bytes but the last); GET …/{id} lists
 * the acknowledged parts; POST …/{id}/complete stores the file as a new version (the answer of
 * a one-request upload, with its size); DELETE …/{id} aborts.
 */
export interface ResumableStart {
  id: string;
  partSize: number;
}

/**
 * Who started a resumable upload, as the proxy tells the service (an opaque tag; the browser's
 * own header of this name never crosses the proxy). A session started with one is continued,
 * completed or aborted only by requests carrying the same tag, or by an API-key client sending
 * none (it may do anything anyway): another editor who learns the id cannot change the file.
 */
export const UPLOAD_OWNER_HEADER = "x-baseboard-owner";

/** GET /v0/storage/uploads/{bucket}/{id} */
export interface ResumableStatus {
  key: string;
  size: number;
  partSize: number;
  /** Acknowledged part numbers, ascending. */
  parts: number[];
  /** The versioned key, once completed. */
  completed?: string;
}

/** GET /v0/storage/url/sign/{bucket}/{key}[?expiresIn=] */
export interface SignedUrlResponse {
  url: string;
}

/** Keys one POST /v0/storage/url/sign/{bucket} (the signMany extension) signs at most. */
export const SIGN_MANY_MAX = 500;

/** POST /v0/storage/url/sign/{bucket}: signed URLs of many keys (each as endpoint 5 takes it: plain or versioned) in one request. */
export interface SignManyRequest {
  keys: string[];
  /** Seconds, as endpoint 5's expiresIn; the default lifetime when left out. */
  expiresIn?: number;
}

/** One answer a key, in the order asked: its URL, or why it has none (no such file, a key that is no key). */
export interface SignManyResponse {
  items: ({ key: string; url: string } | { key: string; error: string; message: string })[];
}

export interface StorageListItem {
  /** Unversioned key. */
  key: string;
  /** Key of the latest version, `v<timestamp>/<key>`. */
  versionedKey: string;
  size: number;
  contentType: string;
  /** The strong ETag exactly as the GET response's ETag header sends it (quoted). */
  etag: string;
  /** ISO 8601 time the latest version was uploaded. */
  lastModified: string;
}

/** GET /v0/storage/list/{bucket}?prefix=&cursor=&limit= (extension) */
export interface StorageListResponse {
  items: StorageListItem[];
  /** Sub-folder prefixes directly under the prefix, each ending in `/`. */
  folders: string[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** With `count=deep` (first page): keys under the prefix at any depth. */
  count?: number;
}

/** One version of a key, as GET /v0/storage/versions/{bucket}/{key} (extension) lists it. */
export interface StorageVersionItem {
  /** `v<timestamp>/<key>`: read it, sign it or restore it by this key. */
  versionedKey: string;
  size: number;
  contentType: string;
  /** sha256 of the version's bytes, hex (computed at upload). */
  sha256: string;
  /** ISO 8601 time this version was uploaded (or restored). */
  lastModified: string;
}

/** GET /v0/storage/versions/{bucket}/{key} (extension, issue 22.4): every version, newest first. */
export interface StorageVersionsResponse {
  items: StorageVersionItem[];
}

/** POST /v0/storage/restore/{bucket}/{versionedKey} (extension, issue 22.4): the new newest version. */
export interface RestoreResponse {
  /** `v<new timestamp>/<key>`. */
  key: string;
}

/** DELETE /v0/storage/object/{bucket}/{key} (extension) */
export interface DeleteResponse {
  key: string;
  deletedVersions: number;
}

/**
 * A zip download's file name (without ".zip"): letters of any script, digits, spaces, dots,
 * dashes, underscores, with at least one letter or digit (review 50a #4: " " and "..." were taken).
 */
export const ZIP_NAME = /^(?=.*[\p{L}\p{N}])[\p{L}\p{N} ._-]{1,100}$/u;

/** `text` (a bucket and folder's names) as a zip download's name the proxy takes (ZIP_NAME). */
export function zipNameOf(text: string): string {
  const name = text.replace(/[^\p{L}\p{N} ._-]/gu, "_").slice(0, 100);
  return ZIP_NAME.test(name) ? name : "download";
}
