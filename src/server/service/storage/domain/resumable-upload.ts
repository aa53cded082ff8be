/**
 * Resumable uploads (issue 22.5): S3-style parts behind the local service. A session declares
 * key and size; the file then comes as numbered parts of a fixed size (the last one shorter),
 * each stored as a blob of its own (`uploads/<bucket>/<id>/<n>`, through the blob seam, so disk
 * and S3 alike) and acknowledged in the metadata store only once whole. A client cut off asks
 * which parts are acknowledged and sends the rest; completion streams the parts in order into
 * one new object blob (size and sha256 over the whole content) and records it as a new version
 * exactly like a one-request upload. Sessions untouched for a day are swept with their parts.
 *
 * Why not tus: the service already owns the blob seam for both backends and the proxy checks
 * grants and writes the audit trail per endpoint; a tus server would bring its own stores and
 * routing beside them. The wire shape here is S3's (numbered parts, list, complete, abort).
 */
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { type ResumableStatus, validateObjectKey } from "../../../../shared/storage";
import { BlobTooLarge } from "../../blobs/blob-store";
import type { UploadSession, UploadsStore } from "../metadata-uploads";
import type { Bucket } from "./buckets";
import { StorageFailure, invalid, missing } from "./failure";
import { objectBlob, type StorageDomain } from "./storage-domain";
import { isMediaType } from "./content-type";
import { accessMissing, commitUpload } from "./store-upload";

/** 8 MiB: S3's usual part size; small enough that a lost part costs seconds, big enough that 1 GiB is 128 requests. */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;
/** Sessions not touched for this long are swept with their parts. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export const partBlob = (bucket: string, id: string, n: number) => `uploads/${bucket}/${id}/${n}`;
const sessionPrefix = (bucket: string, id: string) => `uploads/${bucket}/${id}/`;

export const partCount = (size: number, partSize: number) => Math.ceil(size / partSize);
/** Bytes part `n` (1-based) must have. */
export const partLength = (size: number, partSize: number, n: number) => Math.min(partSize, size - (n - 1) * partSize);

const START_FIELDS = new Set(["key", "size", "contentType"]);

export interface StartRequest {
  key: unknown;
  size: unknown;
  contentType?: unknown;
}

/**
 * Who asks (UPLOAD_OWNER_HEADER): a session started under an owner answers only that owner, or
 * a caller naming none (an API-key client, who may do anything anyway).
 */
export type Owner = string | undefined;

export interface ResumableUploads {
  start(bucket: Bucket, body: StartRequest, owner?: Owner): Promise<{ id: string; partSize: number }>;
  status(bucket: Bucket, id: string, owner?: Owner): Promise<ResumableStatus>;
  /** Stores part `n` from `body`; `declared` is the request's Content-Length when it had one. */
  putPart(bucket: Bucket, id: string, n: number, body: Readable, declared: number | undefined, owner?: Owner): Promise<{ n: number; size: number }>;
  complete(bucket: Bucket, id: string, owner?: Owner): Promise<{ key: string; size: number }>;
  abort(bucket: Bucket, id: string, owner?: Owner): Promise<void>;
  /** Removes sessions idle for a day and part blobs no session owns; returns how many sessions went. */
  sweep(now?: number): Promise<number>;
}

export function createResumableUploads(d: StorageDomain, store: UploadsStore, partSize = UPLOAD_PART_BYTES): ResumableUploads {
  /** Completions running in this process: a second complete of one session waits for nothing and is refused. */
  const completing = new Set<string>();

  async function session(bucket: Bucket, id: string, owner: Owner): Promise<UploadSession> {
    const s = /^[0-9a-f-]{36}$/.test(id) ? await store.get(bucket.name, id) : undefined;
    if (!s || s.updatedAt < Date.now() - SESSION_TTL_MS) {
      throw missing(`There is no upload session "${id.slice(0, 64)}" in bucket "${bucket.name}" (unknown, aborted, or idle for over 24 hours): start the upload again.`);
    }
    if (s.owner !== null && owner !== undefined && owner !== s.owner) {
      // Refused before anything is read or stored: another person's parts would end up in their file.
      throw new StorageFailure("forbidden", `This upload of "${s.key}" was started by someone else: only they can send its parts, complete it or abort it. Start an upload of your own.`);
    }
    return s;
  }

  /** Parts being sent, by session, in this process: completion waits for none of them, it is refused. */
  const sending = new Map<string, number>();
  const allow = (bucket: Bucket) => ({ create: bucket.access.includes("create"), update: bucket.access.includes("update") });

  /** A part's bytes stored and acknowledged (length checked against what the part must hold). */
  async function storePart(bucket: Bucket, s: UploadSession, id: string, n: number, body: Readable, declared: number | undefined): Promise<{ n: number; size: number }> {
    const count = partCount(s.size, s.partSize);
    if (!Number.isInteger(n) || n < 1 || n > count) {
      throw invalid(count === 0 ? "This upload is of an empty file: it has no parts; complete it directly." : `Part numbers of this upload run from 1 to ${count}; ${n} is not one of them.`);
    }
    const expected = partLength(s.size, s.partSize, n);
    const wrongSize = (got: string) =>
      invalid(`Part ${n} of ${count} must be exactly ${expected} bytes (parts are ${s.partSize} bytes, the last one the rest of the ${s.size}); this one is ${got}. Nothing was stored.`);
    if (declared !== undefined && declared !== expected) throw wrongSize(`${declared}`);
    const name = partBlob(bucket.name, id, n);
    let put;
    try {
      put = await d.blobs.put(name, body, { maxBytes: expected });
    } catch (e) {
      if (e instanceof BlobTooLarge) throw wrongSize("longer");
      throw e;
    }
    if (put.size !== expected) {
      // Only a body without Content-Length gets here (a declared wrong length is refused before
      // anything is stored). It has replaced the part's blob, so the part is acknowledged no more.
      await store.unackPart(id, n);
      await d.blobs.delete([name]).catch(() => undefined);
      throw wrongSize(`${put.size}`);
    }
    await store.ackPart(id, n, put.size);
    return { n, size: put.size };
  }

  /** The parts put together into the file, committed as a one-request upload is. */
  async function assemble(bucket: Bucket, s: UploadSession, id: string): Promise<{ key: string; size: number }> {
    const count = partCount(s.size, s.partSize);
    const have = new Map((await store.parts(id)).map((p) => [p.n, p.size]));
    const absent = Array.from({ length: count }, (_, i) => i + 1).filter((n) => have.get(n) !== partLength(s.size, s.partSize, n));
    if (absent.length) {
      const list = absent.length > 10 ? `${absent.slice(0, 10).join(", ")} and ${absent.length - 10} more` : absent.join(", ");
      throw invalid(`The upload of "${s.key}" is missing part${absent.length === 1 ? "" : "s"} ${list} of ${count}: send ${absent.length === 1 ? "it" : "them"}, then complete.`);
    }
    const file = randomUUID();
    const blob = objectBlob(bucket.name, file);
    const parts = async function* () {
      for (let n = 1; n <= count; n++) yield* await d.blobs.get(partBlob(bucket.name, id, n));
    };
    // One pass over the parts in order: the object blob appears whole or not at all, and its
    // size and sha256 are those of the whole content, as for a one-request upload.
    const put = await d.blobs.put(blob, Readable.from(parts()), { maxBytes: s.size });
    if (put.size !== s.size) {
      await d.blobs.delete([blob]).catch(() => undefined);
      throw new StorageFailure("internal_error", `The stored parts of "${s.key}" add up to ${put.size} bytes, not ${s.size}; start the upload again.`);
    }
    const { key } = await commitUpload(d, bucket, { key: s.key, blob, file, size: put.size, sha256: put.sha256, declaredType: s.contentType ?? undefined });
    await store.complete(id, key);
    await removeParts(bucket.name, id).catch((e) => d.log.warn({}, `storage: parts of a completed upload were not removed (swept later): ${(e as Error).message}`));
    return { key, size: s.size };
  }

  async function removeParts(bucket: string, id: string) {
    const names: string[] = [];
    for await (const e of d.blobs.list(sessionPrefix(bucket, id))) names.push(e.name);
    await d.blobs.delete(names);
  }

  return {
    async start(bucket, body, owner) {
      if (typeof body.key !== "string") throw invalid('Send {"key": "<folder/name>", "size": <bytes>} to start an upload: key is missing or not a string.');
      const valid = validateObjectKey(body.key);
      if (!valid.ok) throw StorageFailure.from(valid.error);
      const size = body.size;
      if (typeof size !== "number" || !Number.isInteger(size) || size < 0) throw invalid("size must be the file's length in bytes: a whole number, 0 or more.");
      // A whole number too large for any file (2^53, 1e18) is over the limit too, and said so.
      if (size > d.maxUploadBytes) {
        throw new StorageFailure("payload_too_large", `The file is ${size.toLocaleString("en-US")} bytes, over this service's upload limit of ${d.maxUploadBytes} bytes (SERVICE_MAX_UPLOAD_BYTES); nothing was stored.`);
      }
      // An API's field, not a browser's header: what is not a media type is said, not replaced by a guess.
      const unknown = Object.keys(body).find((k) => !START_FIELDS.has(k));
      if (unknown !== undefined) throw invalid(`Unknown property "${unknown.slice(0, 64)}": an upload starts with key, size and contentType only.`);
      const type = body.contentType;
      if (type !== undefined && type !== null && type !== "" && (typeof type !== "string" || !isMediaType(type))) {
        throw invalid(`contentType must be a media type such as text/plain or image/png (at most 255 characters, no line breaks)${typeof type === "string" ? `; "${type.slice(0, 60)}" is not one` : ""}. Leave it out to have it guessed from the key.`);
      }
      // The same rule as a one-request upload, told now rather than after the whole file (re-checked at completion).
      const exists = await d.metadata.exists(bucket.name, body.key);
      const a = allow(bucket);
      if (exists ? !a.update : !a.create) throw StorageFailure.from(accessMissing(bucket.name, exists, body.key));
      const id = randomUUID();
      await store.create({ id, bucket: bucket.name, key: body.key, size, partSize, contentType: typeof type === "string" && type ? type : null, owner: owner ?? null });
      return { id, partSize };
    },

    async status(bucket, id, owner) {
      const s = await session(bucket, id, owner);
      const count = partCount(s.size, s.partSize);
      const parts = s.completedKey ? Array.from({ length: count }, (_, i) => i + 1) : (await store.parts(id)).map((p) => p.n);
      return { key: s.key, size: s.size, partSize: s.partSize, parts, ...(s.completedKey ? { completed: s.completedKey } : {}) };
    },

    async putPart(bucket, id, n, body, declared, owner) {
      const s = await session(bucket, id, owner);
      if (s.completedKey) throw new StorageFailure("conflict", `The upload of "${s.key}" is already complete (${s.completedKey}); its parts cannot change.`);
      // Parts and completion exclude each other (review 49a #3: a part sent while the file was
      // being put together was acknowledged, and was not in it).
      if (completing.has(id)) throw new StorageFailure("conflict", `The upload of "${s.key}" is being completed; its parts cannot change now. Ask its status in a moment.`);
      sending.set(id, (sending.get(id) ?? 0) + 1);
      try {
        return await storePart(bucket, s, id, n, body, declared);
      } finally {
        const left = (sending.get(id) ?? 1) - 1;
        if (left > 0) sending.set(id, left);
        else sending.delete(id);
      }
    },

    async complete(bucket, id, owner) {
      const s = await session(bucket, id, owner);
      if (s.completedKey) return { key: s.completedKey, size: s.size };
      if (completing.has(id)) throw new StorageFailure("conflict", `The upload of "${s.key}" is being completed by another request; ask its status in a moment.`);
      if (sending.has(id)) throw new StorageFailure("conflict", `A part of the upload of "${s.key}" is still being sent: complete it once that part is stored.`);
      completing.add(id);
      try {
        return await assemble(bucket, s, id);
      } finally {
        completing.delete(id);
      }
    },

    async abort(bucket, id, owner) {
      const s = await session(bucket, id, owner);
      await store.remove(s.id);
      await removeParts(bucket.name, s.id);
    },

    async sweep(now = Date.now()) {
      const stale = await store.stale(now - SESSION_TTL_MS);
      for (const s of stale) {
        await store.remove(s.id);
        await removeParts(s.bucket, s.id);
      }
      // Parts whose session is gone (an abort or sweep interrupted between row and blobs).
      const live = await store.ids();
      const orphans: string[] = [];
      for await (const e of d.blobs.list("uploads/")) {
        const id = e.name.split("/")[2];
        if (!live.has(id) && e.lastModified.getTime() < now - SESSION_TTL_MS) orphans.push(e.name);
      }
      await d.blobs.delete(orphans);
      return stale.length;
    },
  };
}
