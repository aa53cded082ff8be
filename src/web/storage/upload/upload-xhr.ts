/**
 * One upload as multipart/form-data (parts `key` then `file`, interface §4.3) over
 * XMLHttpRequest, because fetch cannot report upload progress. Errors become ApiErrors with the
 * service's message, like every other call.
 */
import { TAB_HEADER, TAB_ID } from "../../team/live/tab-id";
import { ApiError, CLIENT_HEADER } from "../../api-client";
import { errorBodySchema } from "../../../shared/errors";
import { sessionEnded } from "../../team/session-ended";

export interface UploadHandle {
  promise: Promise<{ key: string }>;
  abort(): void;
}

export class UploadAborted extends Error {}

export function uploadFile(bucket: string, key: string, file: Blob, onProgress: (loaded: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<{ key: string }>((resolve, reject) => {
    xhr.open("POST", `/api/v0/storage/object/${encodeURIComponent(bucket)}`);
    xhr.setRequestHeader(CLIENT_HEADER, "1");
    xhr.setRequestHeader(TAB_HEADER, TAB_ID); // live events skip this tab's own change
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          const body = JSON.parse(xhr.responseText) as { key?: unknown };
          if (typeof body.key === "string") return resolve({ key: body.key });
        } catch {
          // fall through to the error below
        }
        return reject(new ApiError(xhr.status, { error: "internal_error", subCode: 0, message: "The service accepted the upload but did not return its key." }));
      }
      reject(xhrError(xhr));
    };
    xhr.onerror = () =>
      reject(
        new ApiError(0, {
          error: "network_error",
          subCode: 0,
          message: "The connection closed during the upload. The server may have refused the file (too large?) or stopped.",
        }),
      );
    xhr.onabort = () => reject(new UploadAborted("Upload cancelled"));
    const form = new FormData();
    // Order matters: the service reads `key` before it streams `file` to disk.
    form.append("key", key);
    form.append("file", file, key.split("/").pop() || "file");
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/** The error an upload's request ended with; a session that ended sends the tab to sign in, as any request's does. */
export function xhrError(xhr: XMLHttpRequest): ApiError {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(xhr.responseText));
    if (parsed.success) {
      const err = new ApiError(xhr.status, parsed.data);
      if (err.signInRequired) sessionEnded(err.message);
      return err;
    }
  } catch {
    // not JSON
  }
  return new ApiError(xhr.status, {
    error: "http_error",
    subCode: 0,
    message: `HTTP ${xhr.status} ${xhr.statusText}`.trim(),
  });
}

