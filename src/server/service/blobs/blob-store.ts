/**
 * The stream seam under the storage domain (issue 12): a flat namespace of blobs named by the
 * service (`objects/<bucket>/<id>`, `variants/…`), never by a client's key, and no file path or
 * S3 detail crossing it. One backend per store: disk.ts (the default, under DATA_DIR) and s3.ts.
 * Shaped after supabase/storage's backend adapter (get with a range, upload from a stream, head,
 * delete, list), reduced to what the domain needs.
 */
import type { Readable } from "node:stream";

export interface ByteRange {
  /** Inclusive, like HTTP's bytes=start-end. */
  start: number;
  end: number;
}

export interface BlobEntry {
  name: string;
  size: number;
  lastModified: Date;
}

export interface PutResult {
  size: number;
  /** sha256 of the content, hex. */
  sha256: string;
}

export interface BlobStore {
  readonly kind: "disk" | "s3";
  /**
   * Streams `body` into the blob `name`. The blob appears whole when the promise resolves and
   * not at all when it rejects (a failed, aborted or over-long upload leaves nothing). Past
   * `maxBytes` it rejects with BlobTooLarge.
   */
  put(name: string, body: Readable, opts?: { maxBytes?: number }): Promise<PutResult>;
  /** The blob's bytes (a range of them). Rejects with BlobError "not_found" before any byte when it is missing. */
  get(name: string, range?: ByteRange): Promise<Readable>;
  head(name: string): Promise<{ size: number } | undefined>;
  /** Missing names are fine. */
  delete(names: string[]): Promise<void>;
  /** Every blob whose name starts with `prefix`, in no particular order. */
  list(prefix: string): AsyncIterable<BlobEntry>;
  /**
   * Removes what a crashed process left half-written (temp files, unfinished multipart uploads)
   * that was started before `olderThan` (another live instance may be writing the newer ones).
   */
  sweepIncomplete(olderThan?: Date): Promise<number>;
  close(): Promise<void>;
}

/**
 * What can go wrong below the seam, said without paths or endpoints: the storage domain turns
 * these into 404 / 502 / 503 / 507 answers (storage/routes/http-failures.ts).
 */
export type BlobFailure =
  | "not_found"
  /** The disk or store is out of space or quota. */
  | "full"
  /** The disk is read-only or not writable by the service. */
  | "read_only"
  /** The object store could not be reached (connection refused, DNS, timeout). */
  | "unreachable"
  /** The object store answered, but refused (access denied, a 5xx). */
  | "refused";

export class BlobError extends Error {
  constructor(
    readonly failure: BlobFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The body went past the size limit; nothing was kept. */
export class BlobTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

/** File system error codes that mean "this disk cannot take the write", by kind. */
export function diskFailure(err: unknown): BlobFailure | undefined {
  switch ((err as NodeJS.ErrnoException)?.code) {
    case "ENOENT":
      return "not_found";
    case "ENOSPC":
    case "EDQUOT":
    case "EFBIG":
      return "full";
    case "EROFS":
    case "EACCES":
    case "EPERM":
      return "read_only";
    default:
      return undefined;
  }
}
