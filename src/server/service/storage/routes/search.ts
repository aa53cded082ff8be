/**
 * The search extension (issue 22.3): GET /v0/storage/search/{bucket}?q=&cursor=&limit= → the
 * newest version of every key containing q (case-insensitive, any depth), sorted by key, paged
 * by an opaque cursor; the same item shape as the list extension.
 */
import type { FastifyInstance } from "fastify";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, type StorageListItem, validateObjectKey, versionedKey } from "../../../../shared/storage";
import { badRequest } from "../../../http-error";
import { allowed } from "../domain/access";
import type { StorageDomain } from "../domain/storage-domain";
import type { SearchStore } from "../metadata-search";
import { type Query, bucketParam, intParam, requester } from "./request";

export interface StorageSearchResponse {
  items: StorageListItem[];
  nextCursor: string | null;
}

const encode = (key: string) => Buffer.from(key, "utf8").toString("base64url");
/**
 * A cursor is the last key of the page before (any base64url text decodes to something: "zzz"
 * answered an empty page). One this service gave is a key's UTF-8 and encodes back to itself;
 * anything else is said.
 */
function decode(raw: unknown): string {
  if (raw === undefined || raw === "") return "";
  const key = typeof raw === "string" && /^[A-Za-z0-9_-]+$/.test(raw) ? Buffer.from(raw, "base64url").toString("utf8") : "";
  if (key === "" || encode(key) !== raw || !validateObjectKey(key).ok) {
    throw badRequest("cursor is not one this service gave: pass nextCursor from the previous page as it is.");
  }
  return key;
}

export function registerSearchRoute(app: FastifyInstance, d: StorageDomain, store: SearchStore): void {
  app.get("/v0/storage/search/:bucket", async (request): Promise<StorageSearchResponse> => {
    const bucket = allowed(d, requester(request), bucketParam(request), "list");
    const query = request.query as Query;
    const q = query.q;
    if (typeof q !== "string" || q.trim() === "" || Buffer.byteLength(q) > 1024) {
      throw badRequest("q must be some text to find in file names (at most 1024 bytes).");
    }
    const limit = intParam("limit", query.limit, 1, MAX_LIST_LIMIT, DEFAULT_LIST_LIMIT);
    const rows = await store.search(bucket.name, q, decode(query.cursor), limit + 1);
    const page = rows.slice(0, limit);
    return {
      items: page.map((row) => ({
        key: row.key,
        versionedKey: versionedKey(row.version, row.key),
        size: row.size,
        contentType: row.contentType,
        etag: `"${row.sha256}"`,
        lastModified: new Date(row.createdAt).toISOString(),
      })),
      nextCursor: rows.length > limit ? encode(page[page.length - 1].key) : null,
    };
  });
}
