/**
 * POST /v0/storage/restore (extension, issue 22.4): makes one version (`v<ts>/<key>`) the newest
 * version of its key, older versions kept; resolves to the new versioned key. Afterwards
 * everything cached of the bucket refetches: its listings, the key's versions, its previews.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RestoreResponse } from "../../shared/storage";
import { api } from "../api-client";
import { encodeKeyPath } from "./paths.utils";
import { bucketPath, storageKeys } from "./storage-keys";

export async function restoreVersion(bucket: string, versionedKey: string): Promise<string> {
  // No body: the path names the version.
  const res = await api<RestoreResponse>(`/api/v0/storage/restore/${bucketPath(bucket)}/${encodeKeyPath(versionedKey)}`, { method: "POST" });
  return res.key;
}

export function useRestoreVersionMutation(bucket: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (versionedKey: string) => restoreVersion(bucket, versionedKey),
    onSettled: () => qc.invalidateQueries({ queryKey: storageKeys.bucket(bucket) }),
    meta: { handlesErrors: true },
  });
}
