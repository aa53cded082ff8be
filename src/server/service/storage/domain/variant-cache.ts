/**
 * Resized variants, kept in the blob store under a byte budget with least-recently-used eviction
 * (issue 9.3), on disk and S3 alike: `variants/<bucket>/<file>/<w>x<h>.<format>`. Only ladder
 * sizes are kept (resize-ladder.ts); other sizes are resized and served from memory. Every
 * resize, kept or not, goes through the bounded queue; a cache hit does not. Concurrent requests
 * for one variant share one job.
 *
 * The index (name, size, format, recency) lives in this process; it is rebuilt from the blob
 * store at start-up. Several instances on one bucket each keep their own budget; a variant one of
 * them evicted is simply made again by the other (see forget()).
 */
import { Readable } from "node:stream";
import { type BlobEntry, BlobError, type BlobStore } from "../../blobs/blob-store";
import { invalid } from "./failure";
import { isCacheable } from "./resize-ladder";
import type { ResizeBox } from "./resize-params";
import type { ResizeQueue } from "./resize-queue";
import { MAX_INPUT_PIXELS, type OutFormat, mimeOf, resizeImage } from "./resizer";
import { objectBlob, variantPrefix } from "./storage-domain";

export type VariantResult =
  /** The original already fits the box: serve it. */
  | { kind: "original" }
  /** A kept variant: serve the blob. */
  | { kind: "blob"; name: string; size: number; contentType: string }
  /** Resized for this request only (or just made): serve the bytes. */
  | { kind: "bytes"; data: Buffer; contentType: string };

export interface VariantCache {
  get(bucket: string, file: string, originalSize: number, box: ResizeBox): Promise<VariantResult>;
  /** The blob of a kept variant turned out to be gone (another instance evicted it). */
  forget(bucket: string, file: string, box: ResizeBox): void;
  /** Deletes every variant of an object version. */
  dropFile(bucket: string, file: string): Promise<void>;
  /** Start-up: takes a variant found in the blob store into the index (oldest first). */
  adopt(entry: BlobEntry): void;
  /** Start-up: evicts down to the budget after adopting. */
  trim(): Promise<void>;
  usage(): { bytes: number; count: number };
}

export interface VariantCacheOptions {
  blobs: BlobStore;
  queue: ResizeQueue;
  budgetBytes: number;
  maxPixels?: number;
  /** Originals larger than this are not read into memory to be resized. */
  maxSourceBytes?: number;
  /** A variant could not be kept (full or read-only store); it was answered all the same. */
  onKeepFailed?(err: BlobError): void;
}

const NAME = /^variants\/([^/]+)\/([^/]+)\/(\d+)x(\d+)\.(jpeg|png|webp|gif|tiff|avif)$/;
/** 128 MiB: far above any 64-megapixel JPEG or PNG that is not a bomb; two resizes at once stay bounded. */
export const MAX_RESIZE_SOURCE_BYTES = 128 * 1024 * 1024;

interface Entry {
  name: string;
  size: number;
  format: OutFormat;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function createVariantCache(opts: VariantCacheOptions): VariantCache {
  const { blobs, queue, budgetBytes } = opts;
  const maxPixels = opts.maxPixels ?? MAX_INPUT_PIXELS;
  const maxSource = opts.maxSourceBytes ?? MAX_RESIZE_SOURCE_BYTES;
  // Map order is recency: a hit moves the entry to the end, eviction takes from the front.
  const index = new Map<string, Entry>();
  /** Versions whose original already fits a box: no variant, no decoding next time. */
  const fits = new Set<string>();
  const inflight = new Map<string, Promise<VariantResult>>();
  let bytes = 0;

  const keyOf = (bucket: string, file: string, box: ResizeBox) => `${bucket}/${file}/${box.w}x${box.h}`;

  function add(key: string, entry: Entry) {
    const old = index.get(key);
    if (old) bytes -= old.size;
    index.delete(key);
    index.set(key, entry);
    bytes += entry.size;
  }

  async function evict(): Promise<void> {
    const victims: string[] = [];
    for (const [key, entry] of index) {
      if (bytes <= budgetBytes) break;
      index.delete(key);
      bytes -= entry.size;
      victims.push(entry.name);
    }
    if (victims.length) await blobs.delete(victims);
  }

  async function make(bucket: string, file: string, originalSize: number, box: ResizeBox, key: string): Promise<VariantResult> {
    return queue.run(async () => {
      if (originalSize > maxSource) {
        throw invalid(`The image is ${originalSize} bytes, over the ${maxSource}-byte limit for resizing; fetch it without w and h.`);
      }
      const input = await readAll(await blobs.get(objectBlob(bucket, file)));
      const out = await resizeImage(input, box, maxPixels);
      if (out.kind === "original") {
        if (fits.size >= 100_000) fits.clear();
        fits.add(key);
        return { kind: "original" } as const;
      }
      const contentType = mimeOf[out.format];
      if (!isCacheable(box) || out.data.length > budgetBytes) return { kind: "bytes", data: out.data, contentType } as const;
      const name = `${variantPrefix(bucket, file)}${box.w}x${box.h}.${out.format}`;
      try {
        await blobs.put(name, Readable.from([out.data]));
      } catch (e) {
        // A full or read-only store: the image is still answered, just not kept (the put left nothing).
        if (!(e instanceof BlobError)) throw e;
        opts.onKeepFailed?.(e);
        return { kind: "bytes", data: out.data, contentType } as const;
      }
      add(key, { name, size: out.data.length, format: out.format });
      await evict();
      return { kind: "bytes", data: out.data, contentType } as const;
    });
  }

  return {
    async get(bucket, file, originalSize, box) {
      const key = keyOf(bucket, file, box);
      if (fits.has(key)) return { kind: "original" };
      const hit = index.get(key);
      if (hit) {
        index.delete(key);
        index.set(key, hit);
        return { kind: "blob", name: hit.name, size: hit.size, contentType: mimeOf[hit.format] };
      }
      let job = inflight.get(key);
      if (!job) {
        job = make(bucket, file, originalSize, box, key).finally(() => inflight.delete(key));
        inflight.set(key, job);
      }
      return job;
    },
    forget(bucket, file, box) {
      const key = keyOf(bucket, file, box);
      const entry = index.get(key);
      if (entry) {
        index.delete(key);
        bytes -= entry.size;
      }
    },
    async dropFile(bucket, file) {
      const prefix = `${bucket}/${file}/`;
      for (const [key, entry] of index) {
        if (key.startsWith(prefix)) {
          index.delete(key);
          bytes -= entry.size;
        }
      }
      for (const key of fits) if (key.startsWith(prefix)) fits.delete(key);
      // Listed rather than taken from the index: another instance may have made some.
      const names: string[] = [];
      for await (const e of blobs.list(variantPrefix(bucket, file))) names.push(e.name);
      if (names.length) await blobs.delete(names);
    },
    adopt(entry) {
      const m = NAME.exec(entry.name);
      if (!m) return;
      add(`${m[1]}/${m[2]}/${m[3]}x${m[4]}`, { name: entry.name, size: entry.size, format: m[5] as OutFormat });
    },
    trim: evict,
    usage: () => ({ bytes, count: index.size }),
  };
}
