/**
 * Resized variants with sharp (decisions §7): fit inside the box, never enlarged, same format.
 * The header is read first and an image over the pixel limit is refused before any decoding
 * (decompression bombs). At most `concurrency` resizes run at once, and concurrent requests for
 * one variant share one job. Variants are written to a temp file and renamed into place, so the
 * cache never holds half an image.
 */
import fs from "node:fs";
import path from "node:path";
import type sharpFn from "sharp";
import type { Metadata } from "sharp";
import { HttpError, badRequest } from "../../http-error";
import { type ResizeBox, targetSize } from "./resize-params";

/** 64 megapixels: every camera photo of today, while a 30000×30000 bomb (900 MP) is refused. */
export const MAX_INPUT_PIXELS = 64_000_000;

type SharpFactory = typeof sharpFn;
let sharpLoaded: Promise<SharpFactory> | undefined;
/**
 * sharp (libvips) is loaded on the first resize, not at start-up: a service that only stores and
 * streams files stays ~20 MB smaller. Its operation cache is off, since variants are cached on
 * disk and decoded images kept around would only grow the process.
 */
export function loadSharp(): Promise<SharpFactory> {
  sharpLoaded ??= import("sharp").then((m) => {
    m.default.cache(false);
    return m.default;
  });
  return sharpLoaded;
}

type OutFormat = "jpeg" | "png" | "webp" | "gif" | "tiff" | "avif";

const mimeOf: Record<OutFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  tiff: "image/tiff",
  avif: "image/avif",
};

export interface Variant {
  path: string;
  contentType: string;
}

export interface Resizer {
  /** Returns the cached variant at `dest`, making it first if needed. */
  variant(src: string, dest: string, tmp: string, box: ResizeBox): Promise<Variant>;
  /** Drops a variant from the in-memory index (its file turned out to be gone). */
  forget(dest: string): void;
}

function outFormat(meta: Metadata): OutFormat | undefined {
  switch (meta.format) {
    case "jpeg":
    case "png":
    case "webp":
    case "gif":
    case "tiff":
      return meta.format;
    case "heif":
      return meta.compression === "av1" ? "avif" : undefined;
    default:
      return undefined;
  }
}

function semaphore(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await job();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

export function createResizer(opts: { maxPixels?: number; concurrency?: number } = {}): Resizer {
  const maxPixels = opts.maxPixels ?? MAX_INPUT_PIXELS;
  const limit = semaphore(opts.concurrency ?? 2);
  const inflight = new Map<string, Promise<Variant>>();
  // Variants known to be on disk, with their type: a cache hit costs no file system call before
  // the file is opened. Bounded; evicted entries are found again on disk.
  const known = new Map<string, string>();
  const remember = (dest: string, type: string) => {
    if (known.size >= 50_000) known.delete(known.keys().next().value!);
    known.set(dest, type);
  };
  // Formats are recorded beside the variant's name so a cache hit needs no decoding at all.
  const typeFile = (dest: string) => `${dest}.type`;

  async function make(src: string, dest: string, tmp: string, box: ResizeBox): Promise<Variant> {
    const sharp = await loadSharp();
    let meta: Metadata;
    let header: ReturnType<typeof sharp>;
    try {
      header = sharp(src, { limitInputPixels: false });
      meta = await header.metadata();
    } catch {
      throw badRequest("w and h work only on images (JPEG, PNG, WebP, GIF, TIFF, AVIF), and this file is not one sharp can read.");
    }
    const format = outFormat(meta);
    if (!format) throw badRequest(`w and h do not work on ${meta.format ?? "this"} files; only JPEG, PNG, WebP, GIF, TIFF and AVIF can be resized.`);
    const width = meta.width ?? 0;
    const height = meta.pageHeight && meta.pages ? meta.pageHeight * meta.pages : (meta.height ?? 0);
    if (width * height > maxPixels) {
      throw badRequest(`The image is ${width}×${height} pixels, over the resizing limit of ${maxPixels / 1e6} megapixels; it was not decoded.`);
    }
    const upright = (meta.orientation ?? 1) === 1;
    await fs.promises.mkdir(path.dirname(dest), { recursive: true });
    const contentType = mimeOf[format];
    const frameHeight = meta.pageHeight ?? meta.height ?? 0;
    if (upright && (!box.w || width <= box.w) && (!box.h || frameHeight <= box.h)) {
      // Already fits and never enlarged: the variant is the original itself.
      await fs.promises.link(src, tmp);
    } else {
      const animated = format === "gif" || format === "webp";
      const { width: tw, height: th } = targetSize(width, frameHeight, meta.orientation ?? 1, box);
      await limit(() =>
        // The pixel count was checked above; a still image reuses the instance that read the header.
        (animated ? sharp(src, { limitInputPixels: maxPixels, animated }) : header)
          .rotate()
          .resize({ width: tw, height: th, fit: "fill" })
          .toFormat(format)
          .toFile(tmp),
      ).catch((e) => {
        throw e instanceof HttpError ? e : badRequest(`The image could not be resized: ${(e as Error).message}.`);
      });
    }
    await fs.promises.writeFile(typeFile(dest), contentType);
    await fs.promises.rename(tmp, dest);
    remember(dest, contentType);
    return { path: dest, contentType };
  }

  return {
    forget(dest) {
      known.delete(dest);
    },
    async variant(src, dest, tmp, box) {
      const hit = known.get(dest);
      if (hit) return { path: dest, contentType: hit };
      try {
        const contentType = await fs.promises.readFile(typeFile(dest), "utf8");
        await fs.promises.access(dest);
        remember(dest, contentType);
        return { path: dest, contentType };
      } catch {
        // not cached yet
      }
      let job = inflight.get(dest);
      if (!job) {
        job = make(src, dest, tmp, box).finally(() => {
          inflight.delete(dest);
          fs.promises.rm(tmp, { force: true }).catch(() => undefined);
        });
        inflight.set(dest, job);
      }
      return job;
    },
  };
}
