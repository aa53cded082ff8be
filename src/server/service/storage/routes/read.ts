/** Endpoint 4: get a file (GET/HEAD), the latest or a named version, whole, ranged or resized. */
import type { FastifyInstance } from "fastify";
import { allowed } from "../domain/access";
import { cacheControlFor } from "../domain/caching";
import { lookup, readObject } from "../domain/read-object";
import type { StorageDomain } from "../domain/storage-domain";
import { bucketParam, conditions, parseKey, requester, resizeBox, sendRead, wildcard } from "./request";

export function registerReadRoute(app: FastifyInstance, d: StorageDomain): void {
  app.route({
    method: ["GET", "HEAD"],
    url: "/v0/storage/public/:bucket/*",
    handler: async (request, reply) => {
      const bucket = allowed(d, requester(request), bucketParam(request), "read");
      const key = parseKey(wildcard(request));
      const box = resizeBox(request);
      const row = await lookup(d, bucket, key);
      const cacheControl = cacheControlFor({ permission: bucket.permission, versioned: key.version !== undefined });
      return sendRead(reply, await readObject(d, bucket, row, box, cacheControl, conditions(request)));
    },
  });
}
