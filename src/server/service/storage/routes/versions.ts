/**
 * The versions extension (issue 22.4):
 *   GET  /v0/storage/versions/{bucket}/{key}           → {"items":[{versionedKey,size,contentType,sha256,lastModified}]}, newest first
 *   POST /v0/storage/restore/{bucket}/{versionedKey}   → {"key":"v<new version>/<key>"} (no body)
 * Listing needs what listing the bucket needs; a restore writes a new version over an existing
 * key, so it needs update access, as uploading over that key does.
 */
import type { FastifyInstance } from "fastify";
import type { RestoreResponse, StorageVersionsResponse } from "../../../../shared/storage";
import { allowed } from "../domain/access";
import type { StorageDomain } from "../domain/storage-domain";
import { listVersions, restoreVersion } from "../domain/versions";
import { bucketParam, parseKey, requester, wildcard } from "./request";

export function registerVersionRoutes(app: FastifyInstance, d: StorageDomain): void {
  app.get("/v0/storage/versions/:bucket/*", async (request, reply): Promise<StorageVersionsResponse> => {
    const bucket = allowed(d, requester(request), bucketParam(request), "list");
    const answer = await listVersions(d, bucket, parseKey(wildcard(request)));
    // A restore or an upload adds a version at any moment: never answer from a cache.
    reply.header("cache-control", "no-store");
    return answer;
  });

  app.post("/v0/storage/restore/:bucket/*", async (request): Promise<RestoreResponse> => {
    const bucket = allowed(d, requester(request), bucketParam(request), "update");
    return restoreVersion(d, bucket, parseKey(wildcard(request)));
  });
}
