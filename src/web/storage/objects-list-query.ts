/** GET /v0/storage/list (extension): one folder level, paged through the service's cursor. */
import { infiniteQueryOptions } from "@tanstack/react-query";
import { api } from "../api-client";
import type { ListPage } from "./listing.utils";
import { folderPrefix } from "./paths.utils";
import { bucketPath, LIST_PAGE_SIZE, storageKeys } from "./storage-keys";

export async function fetchListPage(bucket: string, folder: string, cursor: string | undefined, signal?: AbortSignal): Promise<ListPage> {
  const q = new URLSearchParams({ prefix: folderPrefix(folder), limit: String(LIST_PAGE_SIZE) });
  if (cursor) q.set("cursor", cursor);
  return api<ListPage>(`/api/v0/storage/list/${bucketPath(bucket)}?${q}`, { signal });
}

export const listQueryOptions = (bucket: string, folder: string) =>
  infiniteQueryOptions({
    queryKey: storageKeys.list(bucket, folder),
    queryFn: ({ pageParam, signal }) => fetchListPage(bucket, folder, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor || undefined,
    // The browser shows the error in place of the listing, with a retry button.
    meta: { handlesErrors: true },
  });
