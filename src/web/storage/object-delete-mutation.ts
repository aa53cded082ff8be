/** DELETE /v0/storage/object (extension): every version of a key; the bucket's lists refetch. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../api-client";
import { forgetUpload } from "./local-uploads";
import { encodeKeyPath } from "./paths.utils";
import { afterKeysGone, bucketPath } from "./storage-keys";

export function useDeleteObjectMutation(bucket: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (key: string) => {
      await apiFetch(`/api/v0/storage/object/${bucketPath(bucket)}/${encodeKeyPath(key)}`, { method: "DELETE" });
      await forgetUpload(bucket, key).catch(() => undefined);
    },
    // Not the deleted key's own versions or preview: the panel or preview showing it closes.
    onSettled: (_r, _e, key) => afterKeysGone(qc, bucket, (k) => k === key),
    meta: { handlesErrors: true },
  });
}
