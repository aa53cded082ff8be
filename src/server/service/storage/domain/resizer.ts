/**
 * Resizing one image with sharp (decisions §7): fit inside the box, never enlarged, same format.
 * The header is read first and an image over the pixel limit is refused before any decoding
 * (decompression bombs). Works on bytes, not paths, so it is the same over disk and S3, and no
 * error message can carry a file name.
 */
import type sharpFn from "sharp";
import type { Metadata } from "sharp";
import { StorageFailure, invalid } from "./failure";
import { type ResizeBox, targetSize } from "./resize-params";

/** 64 megapixels: every camera photo of today, while a 30000×30000 bomb (900 MP) is refused. */
export const MAX_INPUT_PIXELS = 64_000_000;

type SharpFactory = typeof sharpFn;
let sharpLoaded: Promise<SharpFactory> | undefined;
/**
 * sharp (libvips) is loaded on the first resize, not at start-up: a service that only stores and
 * streams files stays ~20 MB smaller. Its operation cache is off, since variants are cached in
 * the blob store and decoded images kept around would only grow the process.
 */
export function loadSharp(): Promise<SharpFactory> {
  sharpLoaded ??= import("sharp").then((m) => {
    m.default.cache(false);
    return m.default;
  });
  return sharpLoaded;
}

export type OutFormat = "jpeg" | "png" | "webp" | "gif" | "tiff" | "avif";

export const mimeOf: Record<OutFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  tiff: "image/tiff",
  avif: "image/avif",
};

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


export type Resized = { kind: "original"; format: OutFormat } | { kind: "resized"; format: OutFormat; data: Buffer };

export async function resizeImage(input: Buffer, box: ResizeBox, maxPixels = MAX_INPUT_PIXELS): Promise<Resized> {
  const sharp = await loadSharp();
  let meta: Metadata;
  const header = sharp(input, { limitInputPixels: false });
  try {
    meta = await header.metadata();
  } catch {
    throw invalid("w and h work only on images (JPEG, PNG, WebP, GIF, TIFF, AVIF), and this file is not one of them (or its image data is damaged). Leave w and h out to get the file as it is.");
  }
  const format = outFormat(meta);
  if (!format) throw invalid(`w and h do not work on ${meta.format ?? "this"} files; only JPEG, PNG, WebP, GIF, TIFF and AVIF can be resized.`);
  const width = meta.width ?? 0;
  const height = meta.pageHeight && meta.pages ? meta.pageHeight * meta.pages : (meta.height ?? 0);
  if (width * height > maxPixels) {
    throw invalid(`The image is ${width}×${height} pixels, over the resizing limit of ${maxPixels / 1e6} megapixels; it was not decoded.`);
  }
  const upright = (meta.orientation ?? 1) === 1;
  const frameHeight = meta.pageHeight ?? meta.height ?? 0;
  // Already fits and never enlarged: the variant is the original itself.
  if (upright && (!box.w || width <= box.w) && (!box.h || frameHeight <= box.h)) return { kind: "original", format };
  const animated = format === "gif" || format === "webp";
  const { width: tw, height: th } = targetSize(width, frameHeight, meta.orientation ?? 1, box);
  try {
    // The pixel count was checked above; a still image reuses the instance that read the header.
    const data = await (animated ? sharp(input, { limitInputPixels: maxPixels, animated }) : header)
      .rotate()
      .resize({ width: tw, height: th, fit: "fill" })
      .toFormat(format)
      .toBuffer();
    return { kind: "resized", format, data };
  } catch (e) {
    if (e instanceof StorageFailure) throw e;
    // Its header read, its pixels not (a file cut short, damaged bytes): said in our words, not
    // the library's ("vipspng: libpng read error\nvips2png: unable to write to target": review 55a #2).
    throw invalid(`The image could not be decoded to resize it: its data seems damaged or cut short (its header reads as a ${width}×${height} ${meta.format ?? "image"}). Leave w and h out to get the file as it is, or upload it again.`);
  }
}
