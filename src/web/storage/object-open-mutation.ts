/**
 * Open a file by its key where the bucket cannot be listed: ask whether it exists (through
 * /api/exists, so a wrong key prints no 404 in the console), read what it is with a HEAD, and
 * add it to this browser's catalogue so that it is listed from then on.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { rememberUpload } from "./local-uploads";
import type { StorageItem } from "./listing.utils";
import { headObject, objectExists } from "./object-head-query";
import type { KeyToOpen } from "./open-key/open-key.utils";
import { storageKeys } from "./storage-keys";

/** The file as the catalogue lists it, or undefined when the key has no version. */
export async function openObject(bucket: string, k: KeyToOpen): Promise<StorageItem | undefined> {
  if (!(await objectExists(bucket, k.key))) return undefined;
  const head = await headObject(bucket, k.key);
  if (!head) return undefined;
  const item: StorageItem = { ...head, key: k.baseKey, versionedKey: k.versioned ? k.key : undefined };
  await rememberUpload({
    bucket,
    key: item.key,
    versionedKey: item.versionedKey,
    size: item.size ?? 0,
    contentType: item.contentType ?? "application/octet-stream",
    lastModified: item.lastModified ?? new Date().toISOString(),
    etag: item.etag,
  });
  return item;
}

export function useOpenObjectMutation(bucket: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (k: KeyToOpen) => openObject(bucket, k),
    onSuccess: (item) => {
      if (item) void qc.invalidateQueries({ queryKey: storageKeys.local(bucket) });
    },
    meta: { handlesErrors: true },
  });
}
