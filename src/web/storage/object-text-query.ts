/** The first bytes of a text file: enough for a preview without pulling a large log. */
import { queryOptions } from "@tanstack/react-query";
import { apiFetch } from "../api-client";
import { storageKeys } from "./storage-keys";
import { objectUrl } from "./thumb.utils";

export const TEXT_PREVIEW_BYTES = 64 * 1024;

export const textPreviewQueryOptions = (bucket: string, key: string, etag?: string) =>
  queryOptions({
    queryKey: storageKeys.text(bucket, key, etag),
    queryFn: async ({ signal }) => {
      const res = await apiFetch(objectUrl(bucket, key), { headers: { range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` }, signal });
      const buf = await res.arrayBuffer();
      const total = Number(res.headers.get("content-range")?.split("/")[1] ?? buf.byteLength);
      return { text: new TextDecoder().decode(buf), truncated: res.status === 206 && total > buf.byteLength };
    },
    staleTime: 60_000,
    meta: { handlesErrors: true },
  });
