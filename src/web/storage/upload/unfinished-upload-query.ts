/**
 * An unfinished upload's session on the service (GET, for what it stored) and its end (DELETE,
 * Discard). A session the service no longer has answers `null`, and is forgotten here.
 */
import { queryOptions } from "@tanstack/react-query";
import type { ResumableStatus } from "../../../shared/storage";
import { ApiError, api, apiFetch } from "../../api-client";
import { storageKeys } from "../storage-keys";
import { type UnfinishedUpload, forgetUnfinished } from "./unfinished-uploads";

const sessionPath = (u: UnfinishedUpload) => `/api/v0/storage/uploads/${encodeURIComponent(u.bucket)}/${encodeURIComponent(u.session.id)}`;

export const unfinishedUploadQueryOptions = (u: UnfinishedUpload) =>
  queryOptions({
    queryKey: storageKeys.unfinished(u.bucket, u.session.id),
    queryFn: async ({ signal }): Promise<ResumableStatus | null> => {
      try {
        return await api<ResumableStatus>(sessionPath(u), { signal });
      } catch (e) {
        // Gone (completed elsewhere, expired, aborted): nothing to resume.
        if (e instanceof ApiError && [400, 403, 404].includes(e.status)) {
          forgetUnfinished(u);
          return null;
        }
        throw e;
      }
    },
    retry: false,
    meta: { handlesErrors: true },
  });

/** Ends the session on the service (already gone is fine) and forgets it here. */
export async function discardUnfinished(u: UnfinishedUpload): Promise<void> {
  try {
    await apiFetch(sessionPath(u), { method: "DELETE" });
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
  forgetUnfinished(u);
}
