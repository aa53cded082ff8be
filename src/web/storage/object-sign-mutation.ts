/** GET /v0/storage/url/sign: a signed URL (expiresIn only where the upstream has the extension). */
import { useMutation } from "@tanstack/react-query";
import { api } from "../api-client";
import { encodeKeyPath } from "./paths.utils";
import { bucketPath } from "./storage-keys";

export async function signUrl(bucket: string, key: string, expiresIn?: number, signal?: AbortSignal): Promise<string> {
  const q = expiresIn ? `?expiresIn=${expiresIn}` : "";
  const res = await api<{ url: string }>(`/api/v0/storage/url/sign/${bucketPath(bucket)}/${encodeKeyPath(key)}${q}`, { signal });
  return res.url;
}

export function useSignUrlMutation(bucket: string) {
  return useMutation({
    mutationFn: ({ key, expiresIn }: { key: string; expiresIn?: number }) => signUrl(bucket, key, expiresIn),
    meta: { handlesErrors: true },
  });
}
