/** The local catalogue (IndexedDB): files uploaded or opened from this browser, per bucket. */
import { queryOptions } from "@tanstack/react-query";
import { localUploads } from "./local-uploads";
import { storageKeys } from "./storage-keys";

export const localUploadsQueryOptions = (bucket: string) =>
  queryOptions({ queryKey: storageKeys.local(bucket), queryFn: () => localUploads(bucket), meta: { handlesErrors: true } });
