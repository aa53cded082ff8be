/** The delete extension: DELETE /v0/storage/object/{bucket}/{key} removes every version. */
import type { FastifyInstance } from "fastify";
import type { DeleteResponse } from "../../../../shared/storage";
import { allowed } from "../domain/access";
import { deleteObject } from "../domain/delete-object";
import type { StorageDomain } from "../domain/storage-domain";
import { bucketParam, parseKey, requester, wildcard } from "./request";

export function registerDeleteRoute(app: FastifyInstance, d: StorageDomain): void {
  app.delete("/v0/storage/object/:bucket/*", async (request): Promise<DeleteResponse> => {
    const bucket = allowed(d, requester(request), bucketParam(request), "delete");
    return deleteObject(d, bucket, parseKey(wildcard(request)));
  });
}
