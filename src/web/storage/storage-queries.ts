/**
 * Server data of the storage workspace: query keys, queryOptions and mutation hooks over the
 * proxy's /api/v0/storage endpoints. Nothing fetched is copied into a store.
 */
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, api, apiFetch } from "../api-client";
import type { ListPage } from "./listing.utils";
import { forgetUpload, localUploads } from "./local-uploads";
import { encodeKeyPath, folderPrefix } from "./paths.utils";
import { objectUrl } from "./thumb.utils";

export const LIST_PAGE_SIZE = 200;

export const storageKeys = {
  all: ["storage"] as const,
  bucket: (bucket: string) => ["storage", bucket] as const,
  list: (bucket: string, folder: string) => ["storage", bucket, "list", folder, LIST_PAGE_SIZE] as const,
  local: (bucket: string) => ["storage", bucket, "local"] as const,
  text: (bucket: string, key: string, etag: string | undefined) => ["storage", bucket, "text", key, etag ?? ""] as const,
};

const bucketPath = (bucket: string) => encodeURIComponent(bucket);

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

export const localUploadsQueryOptions = (bucket: string) =>
  queryOptions({ queryKey: storageKeys.local(bucket), queryFn: () => localUploads(bucket), meta: { handlesErrors: true } });

/** The first bytes of a text file: enough for a preview without pulling a large log. */
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

/**
 * Whether a key already has a version. A GET of its first byte rather than a HEAD: an error
 * then comes with the service's (or the proxy's) message, which a HEAD has no body to carry.
 * 416 is an existing empty file.
 */
export async function objectExists(bucket: string, key: string): Promise<boolean> {
  try {
    const res = await apiFetch(objectUrl(bucket, key), { headers: { range: "bytes=0-0" }, cache: "no-store" });
    await res.body?.cancel();
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return false;
    if (e instanceof ApiError && e.status === 416) return true;
    throw e;
  }
}

export async function signUrl(bucket: string, key: string, expiresIn?: number): Promise<string> {
  const q = expiresIn ? `?expiresIn=${expiresIn}` : "";
  const res = await api<{ url: string }>(`/api/v0/storage/url/sign/${bucketPath(bucket)}/${encodeKeyPath(key)}${q}`);
  return res.url;
}

export function useSignUrlMutation(bucket: string) {
  return useMutation({
    mutationFn: ({ key, expiresIn }: { key: string; expiresIn?: number }) => signUrl(bucket, key, expiresIn),
    meta: { handlesErrors: true },
  });
}

export function useDeleteObjectMutation(bucket: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (key: string) => {
      await apiFetch(`/api/v0/storage/object/${bucketPath(bucket)}/${encodeKeyPath(key)}`, { method: "DELETE" });
      await forgetUpload(bucket, key).catch(() => undefined);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: storageKeys.bucket(bucket) }),
    meta: { handlesErrors: true },
  });
}
