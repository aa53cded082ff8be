/**
 * Read side: get a file (endpoint 4), get a signed URL (endpoint 5), serve a signed URL
 * (endpoint 6) and the list extension. Handlers parse, authorize, look up, then hand the row to
 * serveObject; all decisions live in the small modules they call.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  DEFAULT_LIST_LIMIT,
  DEFAULT_SIGNED_URL_SECONDS,
  MAX_LIST_LIMIT,
  MAX_SIGNED_URL_SECONDS,
  type ParsedObjectKey,
  type SignedUrlResponse,
  type StorageListResponse,
  encodeKeyPath,
  parseObjectKey,
  versionedKey,
} from "../../../shared/storage";
import { HttpError, badRequest, notFound } from "../../http-error";
import { type Bucket, authorize } from "./buckets";
import { cacheControlFor } from "./caching";
import { type StorageDeps, allowed, findBucket, wildcard } from "./deps";
import { decodeCursor, encodeCursor, listPage } from "./list-paging";
import type { ObjectRow } from "./metadata";
import { parseResize } from "./resize-params";
import { sendFile } from "./serve";

type Query = Record<string, unknown>;
const bucketParam = (params: unknown) => (params as { bucket: string }).bucket;

function parseKey(raw: string): ParsedObjectKey {
  const parsed = parseObjectKey(raw);
  if (!parsed.ok) throw HttpError.from(parsed.error);
  return parsed.value;
}

async function lookup(deps: StorageDeps, bucket: Bucket, key: ParsedObjectKey): Promise<ObjectRow> {
  const row = await (key.version === undefined ? deps.metadata.latest(bucket.name, key.key) : deps.metadata.version(bucket.name, key.key, key.version));
  if (!row) {
    const what = key.version === undefined ? `"${key.key}"` : `version v${key.version} of "${key.key}"`;
    throw notFound(`There is no object ${what} in bucket "${bucket.name}".`);
  }
  return row;
}

function intParam(name: string, raw: unknown, min: number, max: number, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  if (typeof raw !== "string" || !/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw badRequest(`${name} must be one whole number from ${min} to ${max}.`);
  }
  return Number(raw);
}

async function serveObject(
  deps: StorageDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  bucket: Bucket,
  row: ObjectRow,
  cacheControl: string,
): Promise<FastifyReply> {
  const resize = parseResize(request.query as Query, request.headers);
  if (!resize.ok) throw HttpError.from(resize.error);
  const original = deps.blobs.objectPath(bucket.name, row.file);
  const lastModified = new Date(row.createdAt);
  // SVG is drawn at any size by whoever displays it: w and h give it back unchanged.
  if (!resize.value || row.contentType === "image/svg+xml") {
    return sendFile(request, reply, { path: original, contentType: row.contentType, etag: `"${row.sha256}"`, cacheControl, lastModified });
  }
  if (!row.contentType.startsWith("image/")) {
    throw badRequest(`w and h resize images, and "${row.key}" is ${row.contentType}; fetch it without w and h.`);
  }
  const box = resize.value;
  const dest = deps.blobs.variantPath(bucket.name, row.file, box.w, box.h);
  const etag = `"${row.sha256}-${box.w}x${box.h}"`;
  const variant = await deps.resizer.variant(original, dest, deps.blobs.tmpPath(), box);
  try {
    return await sendFile(request, reply, { ...variant, etag, cacheControl, lastModified });
  } catch (e) {
    if (!(e instanceof HttpError && e.code === "not_found")) throw e;
    // The cached variant vanished from disk (removed by hand, say): make it again, once.
    deps.resizer.forget(dest);
    const again = await deps.resizer.variant(original, dest, deps.blobs.tmpPath(), box);
    return sendFile(request, reply, { ...again, etag, cacheControl, lastModified });
  }
}

export function registerReadRoutes(app: FastifyInstance, deps: StorageDeps): void {
  app.route({
    method: ["GET", "HEAD"],
    url: "/v0/storage/public/:bucket/*",
    handler: async (request, reply) => {
      const bucket = allowed(deps, request, bucketParam(request.params), "read");
      const key = parseKey(wildcard(request.params));
      const row = await lookup(deps, bucket, key);
      const cacheControl = cacheControlFor({ permission: bucket.permission, versioned: key.version !== undefined });
      return serveObject(deps, request, reply, bucket, row, cacheControl);
    },
  });

  app.get("/v0/storage/url/sign/:bucket/*", async (request, reply): Promise<SignedUrlResponse> => {
    const bucket = allowed(deps, request, bucketParam(request.params), "sign");
    const row = await lookup(deps, bucket, parseKey(wildcard(request.params)));
    const lifetime = intParam("expiresIn", (request.query as Query).expiresIn, 1, MAX_SIGNED_URL_SECONDS, DEFAULT_SIGNED_URL_SECONDS);
    const expires = Math.floor(Date.now() / 1000) + lifetime;
    const vkey = versionedKey(row.version, row.key);
    const { keyPairId, signature } = deps.keyring.sign({ bucket: bucket.name, versionedKey: vkey, expires });
    const query = new URLSearchParams({ Expires: String(expires), "Key-Pair-Id": keyPairId, Signature: signature });
    const base = deps.ctx.publicBaseUrl().replace(/\/+$/, "");
    reply.header("cache-control", "no-store");
    return { url: `${base}/v0/storage/sign/${encodeURIComponent(bucket.name)}/${encodeKeyPath(vkey)}?${query}` };
  });

  app.route({
    method: ["GET", "HEAD"],
    url: "/v0/storage/sign/:bucket/*",
    handler: async (request, reply) => {
      const bucketName = bucketParam(request.params);
      const rawKey = wildcard(request.params);
      // The signature is checked before anything else: a tampered bucket or key is a 403, not a 400 or 404.
      const verified = deps.keyring.verify(request.query as Query, { bucket: bucketName, versionedKey: rawKey });
      if (!verified.ok) throw HttpError.from(verified.error);
      const bucket = findBucket(deps, bucketName);
      const failure = authorize(bucket, "read", { hasKey: false, address: undefined, signed: true });
      if (failure) throw HttpError.from(failure);
      const key = parseKey(rawKey);
      if (key.version === undefined) throw HttpError.from({ code: "forbidden", message: "A signed URL must name a versioned key." });
      const row = await lookup(deps, bucket, key);
      const cacheControl = cacheControlFor({ permission: bucket.permission, versioned: true, signedExpires: verified.value.expires });
      return serveObject(deps, request, reply, bucket, row, cacheControl);
    },
  });

  app.get("/v0/storage/list/:bucket", async (request): Promise<StorageListResponse> => {
    const bucket = allowed(deps, request, bucketParam(request.params), "list");
    const q = request.query as Query;
    const prefix = q.prefix ?? "";
    if (typeof prefix !== "string" || prefix.startsWith("/") || prefix.includes("\\") || Buffer.byteLength(prefix) > 1024) {
      throw badRequest("prefix must be one folder path such as docs/ (no leading /, no backslash, at most 1024 bytes).");
    }
    const limit = intParam("limit", q.limit, 1, MAX_LIST_LIMIT, DEFAULT_LIST_LIMIT);
    let cursor: { after: string } | undefined;
    if (q.cursor !== undefined && q.cursor !== "") {
      const decoded = typeof q.cursor === "string" ? decodeCursor(q.cursor) : decodeCursor("");
      if (!decoded.ok) throw HttpError.from(decoded.error);
      cursor = decoded.value;
    }
    const page = await listPage(prefix, cursor, limit, (from, inclusive, below, n) => deps.metadata.keys(bucket.name, from, inclusive, below, n));
    const response: StorageListResponse = { items: [], folders: [], nextCursor: page.next ? encodeCursor(page.next) : null };
    for (const entry of page.entries) {
      if (entry.kind === "folder") {
        response.folders.push(entry.prefix);
        continue;
      }
      const row = await deps.metadata.latest(bucket.name, entry.key);
      if (!row) continue; // deleted between the two reads
      response.items.push({
        key: row.key,
        versionedKey: versionedKey(row.version, row.key),
        size: row.size,
        contentType: row.contentType,
        etag: `"${row.sha256}"`,
        lastModified: new Date(row.createdAt).toISOString(),
      });
    }
    return response;
  });
}
