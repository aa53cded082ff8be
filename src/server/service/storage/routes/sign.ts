/** Endpoint 5 (get a signed URL) and endpoint 6 (serve one). */
import type { FastifyInstance } from "fastify";
import { DEFAULT_SIGNED_URL_SECONDS, MAX_SIGNED_URL_SECONDS, parseObjectKey, SIGN_MANY_MAX, type SignedUrlResponse, type SignManyResponse } from "../../../../shared/storage";
import { HttpError } from "../../../http-error";
import { allowed } from "../domain/access";
import { cacheControlFor } from "../domain/caching";
import { lookup, readObject } from "../domain/read-object";
import { signedUrl, signedUrls, verifySigned } from "../domain/sign-url";
import { invalid } from "../domain/failure";
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

  // The signMany extension: the selection's "Copy signed URLs" in one request instead of one a
  // file (review 51b #4: 1,300 files took 3-18 s, a metadata read each).
  app.post("/v0/storage/url/sign/:bucket", async (request, reply): Promise<SignManyResponse> => {
    const bucket = allowed(d, requester(request), bucketParam(request), "sign");
    const body = request.body as { keys?: unknown; expiresIn?: unknown } | undefined;
    const extra = body && typeof body === "object" ? Object.keys(body).find((k) => k !== "keys" && k !== "expiresIn") : undefined;
    if (!body || typeof body !== "object" || Array.isArray(body)) throw invalid(`Send {"keys": ["a.txt", …], "expiresIn"?: seconds} as JSON.`);
    if (extra !== undefined) throw invalid(`Unknown property "${extra}": send keys and, if you like, expiresIn.`);
    const keys = body.keys;
    if (!Array.isArray(keys) || keys.length === 0 || keys.length > SIGN_MANY_MAX || keys.some((k) => typeof k !== "string")) {
      throw invalid(`keys must be a list of 1 to ${SIGN_MANY_MAX} object keys (text), plain or versioned; for more, send them in several requests.`);
    }
    const e = body.expiresIn;
    if (e !== undefined && !(typeof e === "number" && Number.isInteger(e) && e >= 1 && e <= MAX_SIGNED_URL_SECONDS)) {
      throw invalid(`expiresIn must be one whole number of seconds from 1 to ${MAX_SIGNED_URL_SECONDS}.`);
    }
    reply.header("cache-control", "no-store");
    const parsed = (keys as string[]).map((k) => ({ asked: k, parsed: parseObjectKey(k) }));
    return { items: await signedUrls(d, bucket, parsed, (e as number | undefined) ?? DEFAULT_SIGNED_URL_SECONDS) };
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
