/** The list extension: GET /v0/storage/list/{bucket}?prefix=&cursor=&limit= */
import type { FastifyInstance } from "fastify";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, type StorageListResponse } from "../../../../shared/storage";
import { allowed } from "../domain/access";
import { listObjects } from "../domain/list-objects";
import type { StorageDomain } from "../domain/storage-domain";
import { type Query, bucketParam, intParam, requester } from "./request";

export function registerListRoute(app: FastifyInstance, d: StorageDomain): void {
  app.get("/v0/storage/list/:bucket", async (request): Promise<StorageListResponse> => {
    const bucket = allowed(d, requester(request), bucketParam(request), "list");
    const q = request.query as Query;
    const limit = intParam("limit", q.limit, 1, MAX_LIST_LIMIT, DEFAULT_LIST_LIMIT);
    return listObjects(d, bucket, { prefix: q.prefix, cursor: q.cursor, limit });
  });
}
