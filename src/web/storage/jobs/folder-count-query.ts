/** How many files lie under a folder at any depth (the list extension's `count=deep`), for a delete's confirmation. */
import { queryOptions } from "@tanstack/react-query";
import type { StorageListResponse } from "../../../shared/storage";
import { api } from "../../api-client";
import { bucketPath, storageKeys } from "../storage-keys";

export const folderCountQueryOptions = (bucket: string, folder: string) =>
  queryOptions({
    queryKey: storageKeys.count(bucket, folder),
    queryFn: async ({ signal }) => {
      const q = new URLSearchParams({ prefix: folder, limit: "1", count: "deep" });
      // An upstream that does not count answers the page without it: the confirmation then gives none.
      return (await api<StorageListResponse>(`/api/v0/storage/list/${bucketPath(bucket)}?${q}`, { signal })).count ?? null;
    },
    staleTime: 0,
    retry: false,
    meta: { handlesErrors: true },
  });
