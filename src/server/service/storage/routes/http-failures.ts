/**
 * The one translator from failures below the routes to answers (issue 23.2, decisions §9):
 * the domain's own refusals (StorageFailure, with the shared codes), the blob store's (a full
 * disk or store is a 507, a read-only or unwritable one a 503, an unreachable object store a
 * 503 and a refusing one a 502), the database engine's, and the file system's. Messages say
 * what is wrong and never carry a path, an endpoint or a stack.
 */
import { BlobError, BlobTooLarge } from "../../blobs/blob-store";
import type { SqlEngine } from "../../engines/engine";
import { fsKind, kindOf } from "../../engines/failures";
import { HttpError } from "../../../http-error";
import { StorageFailure } from "../domain/failure";

export interface FailureContext {
  /** Where the bytes live, for the wording of a full store. */
  where: "disk" | "s3";
  /** The request was a write: say that nothing was stored. */
  nothingStored: boolean;
  engine?: SqlEngine;
}

/** The answer for `err`, or undefined when it is none of ours (then it is a 500, logged). */
export function toHttpError(err: unknown, c: FailureContext): HttpError | undefined {
  const tail = c.nothingStored ? " Nothing was stored." : "";
  if (err instanceof HttpError) return err;
  if (err instanceof StorageFailure) return new HttpError(err.code, err.message, err.subCode, err.retryAfter);
  if (err instanceof BlobTooLarge) {
    return new HttpError("payload_too_large", `The file is larger than this service's upload limit of ${err.maxBytes} bytes (SERVICE_MAX_UPLOAD_BYTES).${tail}`);
  }
  if (err instanceof BlobError) {
    switch (err.failure) {
      case "not_found":
        return new HttpError("not_found", "The file was deleted while it was being requested.");
      case "full":
        return new HttpError("insufficient_storage", c.where === "disk" ? `The service's disk is full.${tail}` : `The object store refused the write: it is full or over quota.${tail}`);
      case "read_only":
        return new HttpError("unavailable", `The service's disk is read-only or not writable by the service.${tail}`, undefined, 60);
      case "unreachable":
        return new HttpError("unavailable", `The object store is unreachable; try again shortly.${tail}`, undefined, 5);
      case "refused":
        return new HttpError("bad_gateway", `The object store refused the request (${err.message.replace(/^.*\((.*)\)$/, "$1")}).${tail}`);
    }
  }
  // The metadata store (DuckDB or PostgreSQL) and the file system under it.
  const kind = (c.engine ? kindOf(c.engine.dialect, err) : undefined) ?? fsKind(err);
  switch (kind) {
    case "diskFull":
      return new HttpError("insufficient_storage", `The service's disk is full.${tail}`);
    case "readOnly":
      return new HttpError("unavailable", `The service's disk is read-only or not writable by the service.${tail}`, undefined, 60);
    case "unavailable":
      return new HttpError("unavailable", `The metadata database is unreachable (down or restarting); try again in a moment.${tail}`, undefined, 5);
    default:
      return undefined;
  }
}
