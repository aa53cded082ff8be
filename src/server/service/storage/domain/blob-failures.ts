/**
 * The one place where failures below the seams become answers (decisions §9): a full disk or
 * store is a 507, a read-only or unwritable one a 503, an unreachable object store a 503 and a
 * refusing one a 502. Messages say what is wrong and never carry a path, an endpoint or a stack.
 */
import { BlobError, BlobTooLarge } from "../../blobs/blob-store";
import { HttpError, notFound } from "../../../http-error";

const SQLITE_FULL = new Set(["SQLITE_FULL"]);
const SQLITE_READONLY = new Set(["SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_IOERR_WRITE", "SQLITE_READONLY_DBMOVED"]);

export function storageHttpError(err: unknown, where: "disk" | "s3", nothingStored = true): unknown {
  const tail = nothingStored ? " Nothing was stored." : "";
  if (err instanceof HttpError) return err;
  if (err instanceof BlobTooLarge) return new HttpError("payload_too_large", `The file is larger than this service's upload limit of ${err.maxBytes} bytes (SERVICE_MAX_UPLOAD_BYTES).${tail}`);
  if (err instanceof BlobError) {
    switch (err.failure) {
      case "not_found":
        return notFound("The file was deleted while it was being requested.");
      case "full":
        return new HttpError("insufficient_storage", where === "disk" ? `The service's disk is full.${tail}` : `The object store refused the write: it is full or over quota.${tail}`);
      case "read_only":
        return new HttpError("unavailable", `The service's disk is read-only or not writable by the service.${tail}`, undefined, 60);
      case "unreachable":
        return new HttpError("unavailable", `The object store is unreachable; try again shortly.${tail}`, undefined, 5);
      case "refused":
        return new HttpError("bad_gateway", `The object store refused the request (${err.message.replace(/^.*\((.*)\)$/, "$1")}).${tail}`);
    }
  }
  // Metadata writes (the embedded database on the same disk).
  const code = (err as { code?: string })?.code ?? "";
  if (SQLITE_FULL.has(code)) return new HttpError("insufficient_storage", `The service's disk is full.${tail}`);
  if (SQLITE_READONLY.has(code)) return new HttpError("unavailable", `The service's disk is read-only or not writable by the service.${tail}`, undefined, 60);
  return err;
}
