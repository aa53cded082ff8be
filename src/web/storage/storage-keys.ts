/** Query keys of the storage capability, in one place; the shorter ones are prefixes for invalidation. */
export const LIST_PAGE_SIZE = 200;

export const storageKeys = {
  all: ["storage"] as const,
  bucket: (bucket: string) => ["storage", bucket] as const,
  list: (bucket: string, folder: string) => ["storage", bucket, "list", folder, LIST_PAGE_SIZE] as const,
  local: (bucket: string) => ["storage", bucket, "local"] as const,
  search: (bucket: string, text: string) => ["storage", bucket, "search", text] as const,
  job: (bucket: string, id: string) => ["storage", bucket, "job", id] as const,
  text: (bucket: string, key: string, etag: string | undefined) => ["storage", bucket, "text", key, etag ?? ""] as const,
  versions: (bucket: string, key: string) => ["storage", bucket, "versions", key] as const,
};

export const bucketPath = (bucket: string) => encodeURIComponent(bucket);
