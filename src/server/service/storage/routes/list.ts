/**
 * The list extension: GET /v0/storage/list/{bucket}?prefix=&cursor=&limit=[&count=deep]. With
 * `count=deep` the first page also says how many keys lie under the prefix at any depth
 * (`count`), as a folder's delete confirmation says how many files go (review 29b #12).
 */
import type { FastifyInstance } from "fastify";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, type StorageListResponse } from "../../../../shared/storage";
import { allowed } from "../domain/access";
import { invalid } from "../domain/failure";
import { listObjects } from "../domain/list-objects";
import type { StorageDomain } from "../domain/storage-domain";
import { type Query, bucketParam, intParam, requester } from "./request";

export function registerListRoute(app: FastifyInstance, d: StorageDomain, countUnder: (bucket: string, prefix: string) => Promise<number>): void {
  app.get("/v0/storage/list/:bucket", async (request): Promise<StorageListResponse> => {
    const bucket = allowed(d, requester(request), bucketParam(request), "list");
    const q = request.query as Query;
    const limit = intParam("limit", q.limit, 1, MAX_LIST_LIMIT, DEFAULT_LIST_LIMIT);
    if (q.count !== undefined && q.count !== "deep") throw invalid(`count takes one value, "deep" (how many keys lie under the prefix at any depth); got "${String(q.count).slice(0, 40)}".`);
    const page = await listObjects(d, bucket, { prefix: q.prefix, cursor: q.cursor, limit });
    return q.count === "deep" && !q.cursor ? { ...page, count: await countUnder(bucket.name, typeof q.prefix === "string" ? q.prefix : "") } : page;
  });
}
