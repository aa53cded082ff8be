/**
 * GET /v0/storage/versions (extension, issue 22.4, `capabilities.versions`): every version of a
 * key, newest first, for the file details panel. A key with no version (deleted meanwhile)
 * fails with an ApiError of status 404.
 */
import { queryOptions } from "@tanstack/react-query";
import type { StorageVersionItem, StorageVersionsResponse } from "../../shared/storage";
import { api } from "../api-client";
import { encodeKeyPath } from "./paths.utils";
import { bucketPath, storageKeys } from "./storage-keys";

export type { StorageVersionItem };

export const objectVersionsPath = (bucket: string, key: string) => `/api/v0/storage/versions/${bucketPath(bucket)}/${encodeKeyPath(key)}`;

export const objectVersionsQueryOptions = (bucket: string, key: string) =>
  queryOptions({
    queryKey: storageKeys.versions(bucket, key),
    queryFn: async ({ signal }): Promise<StorageVersionItem[]> => {
      // no-store: an upload or a restore adds a version at any moment (the service says no-store too).
      const res = await api<StorageVersionsResponse>(objectVersionsPath(bucket, key), { signal, cache: "no-store" });
      return res.items;
    },
    meta: { handlesErrors: true },
  });
