/** GET /v0/storage/search (extension, issue 22.3): the first page of keys containing the text, anywhere in the bucket. */
import { queryOptions } from "@tanstack/react-query";
import { api } from "../api-client";
import type { Entry, StorageItem } from "./listing.utils";
import { bucketPath, storageKeys } from "./storage-keys";

export const SEARCH_LIMIT = 200;

export const searchQueryOptions = (bucket: string, text: string) =>
  queryOptions({
    queryKey: storageKeys.search(bucket, text),
    queryFn: async ({ signal }): Promise<Entry[]> => {
      const q = new URLSearchParams({ q: text, limit: String(SEARCH_LIMIT) });
      const page = await api<{ items: StorageItem[] }>(`/api/v0/storage/search/${bucketPath(bucket)}?${q}`, { signal });
      // The whole key as the name: a hit may be anywhere in the bucket.
      return page.items.map((item) => ({ kind: "file" as const, name: item.key, ...item }));
    },
    meta: { handlesErrors: true },
  });
