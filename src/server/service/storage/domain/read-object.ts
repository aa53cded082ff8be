/**
 * Reading a file (interface §4.4): the latest or a named version, whole or one range, as it was
 * uploaded or resized. Returns the plan (outcome and headers) and, when there are bytes to send,
 * the stream, opened before anything is sent so a vanished blob is a clean 404.
 */
import { Readable } from "node:stream";
import { BlobError } from "../../blobs/blob-store";
import type { ParsedObjectKey } from "../../../../shared/storage";
import { invalid, missing } from "./failure";
import type { Bucket } from "./buckets";
import type { ObjectRow } from "../metadata";
import { type Conditions, type FileFacts, type ReadPlan, planRead } from "./read-plan";
import type { ResizeBox } from "./resize-params";
import { objectBlob, type StorageDomain } from "./storage-domain";

export async function lookup(d: StorageDomain, bucket: Bucket, key: ParsedObjectKey): Promise<ObjectRow> {
  const row = key.version === undefined ? await d.metadata.latest(bucket.name, key.key) : await d.metadata.version(bucket.name, key.key, key.version);
  if (!row) {
    const what = key.version === undefined ? `"${key.key}"` : `version v${key.version} of "${key.key}"`;
    throw missing(`There is no object ${what} in bucket "${bucket.name}".`);
  }
  return row;
}

export interface ReadAnswer {
  plan: ReadPlan;
  body?: Readable;
}

const isGone = (e: unknown) => e instanceof BlobError && e.failure === "not_found";

export async function readObject(d: StorageDomain, bucket: Bucket, row: ObjectRow, box: ResizeBox | undefined, cacheControl: string, c: Conditions): Promise<ReadAnswer> {
  const base = { cacheControl, lastModified: new Date(row.createdAt) };
  const original = async (etag: string): Promise<ReadAnswer> => {
    const plan = planRead({ ...base, size: row.size, contentType: row.contentType, etag }, c);
    if (!plan.bytes) return { plan };
    // A blob gone meanwhile is a BlobError("not_found"): a clean 404 from the one translator.
    return { plan, body: await d.blobs.get(objectBlob(bucket.name, row.file), plan.bytes) };
  };
  // SVG is drawn at any size by whoever displays it: w and h give it back unchanged.
  if (!box || row.contentType === "image/svg+xml") return original(`"${row.sha256}"`);
  if (!row.contentType.startsWith("image/")) {
    throw invalid(`w and h resize images, and "${row.key}" is ${row.contentType}; fetch it without w and h.`);
  }
  const etag = `"${row.sha256}-${box.w}x${box.h}"`;
  for (let attempt = 0; ; attempt++) {
    const v = await d.variants.get(bucket.name, row.file, row.size, box);
    if (v.kind === "original") return original(etag);
    const facts: FileFacts = { ...base, etag, contentType: v.contentType, size: v.kind === "blob" ? v.size : v.data.length };
    const plan = planRead(facts, c);
    if (!plan.bytes) return { plan };
    if (v.kind === "bytes") return { plan, body: Readable.from([v.data.subarray(plan.bytes.start, plan.bytes.end + 1)]) };
    try {
      return { plan, body: await d.blobs.get(v.name, plan.bytes) };
    } catch (e) {
      // The kept variant vanished (evicted by another instance, removed by hand): make it again, once.
      if (!isGone(e) || attempt > 0) throw e;
      d.variants.forget(bucket.name, row.file, box);
    }
  }
}
