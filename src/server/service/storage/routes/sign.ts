/** Endpoint 5 (get a signed URL) and endpoint 6 (serve one). */
import type { FastifyInstance } from "fastify";
import { DEFAULT_SIGNED_URL_SECONDS, MAX_SIGNED_URL_SECONDS, type SignedUrlResponse } from "../../../../shared/storage";
import { HttpError } from "../../../http-error";
import { allowed } from "../domain/access";
import { cacheControlFor } from "../domain/caching";
import { lookup, readObject } from "../domain/read-object";
import { signedUrl, verifySigned } from "../domain/sign-url";
import type { StorageDomain } from "../domain/storage-domain";
import { type Query, bucketParam, conditions, intParam, parseKey, requester, resizeBox, sendRead, wildcard } from "./request";

export function registerSignRoutes(app: FastifyInstance, d: StorageDomain): void {
  app.get("/v0/storage/url/sign/:bucket/*", async (request, reply): Promise<SignedUrlResponse> => {
    const bucket = allowed(d, requester(request), bucketParam(request), "sign");
    const row = await lookup(d, bucket, parseKey(wildcard(request)));
    const lifetime = intParam("expiresIn", (request.query as Query).expiresIn, 1, MAX_SIGNED_URL_SECONDS, DEFAULT_SIGNED_URL_SECONDS);
    reply.header("cache-control", "no-store");
    return { url: await signedUrl(d, bucket, row, lifetime) };
  });

  app.route({
    method: ["GET", "HEAD"],
    url: "/v0/storage/sign/:bucket/*",
    handler: async (request, reply) => {
      const rawKey = wildcard(request);
      const { bucket, expires } = await verifySigned(d, bucketParam(request), rawKey, request.query as Query);
      const key = parseKey(rawKey);
      if (key.version === undefined) throw HttpError.from({ code: "forbidden", message: "A signed URL must name a versioned key." });
      const box = resizeBox(request);
      const row = await lookup(d, bucket, key);
      const cacheControl = cacheControlFor({ permission: bucket.permission, versioned: true, signedExpires: expires });
      return sendRead(reply, await readObject(d, bucket, row, box, cacheControl, conditions(request)));
    },
  });
}
