/**
 * Image sizes asked of the service. Thumbnails are requested at the size they are drawn times
 * the device pixel ratio, so they are sharp on high-density screens and no bigger than needed;
 * the service fits the image inside w × h and never enlarges it (decisions §7). Each side is
 * then snapped up to the service's size ladder (64…2048), the sizes it keeps cached (issue 9.3).
 */
import { snapToLadder } from "../../shared/storage";
import { encodeKeyPath } from "./paths.utils";

export const MAX_SIDE = 4096;

export interface Box {
  w: number;
  h: number;
}

export function pixelBox(cssWidth: number, cssHeight: number, dpr: number): Box {
  const ratio = Number.isFinite(dpr) && dpr > 0 ? dpr : 1;
  const clamp = (n: number) => snapToLadder(Math.min(MAX_SIDE, Math.max(1, Math.round(n * ratio))));
  return { w: clamp(cssWidth), h: clamp(cssHeight) };
}

/** Same-origin URL of an object through the proxy, optionally resized. */
export function objectUrl(bucket: string, key: string, box?: Box): string {
  const base = `/api/v0/storage/public/${encodeURIComponent(bucket)}/${encodeKeyPath(key)}`;
  return box ? `${base}?w=${box.w}&h=${box.h}` : base;
}

/** Share of the viewport the lightbox image may take; storage.css (.st-lightbox-img) matches. */
export const LIGHTBOX_VW = 0.84;
export const LIGHTBOX_VH = 0.72;

/** The lightbox asks for the box it draws the image in, in device pixels. */
export function lightboxBox(viewportWidth: number, viewportHeight: number, dpr: number): Box {
  return pixelBox(Math.max(100, viewportWidth * LIGHTBOX_VW), Math.max(100, viewportHeight * LIGHTBOX_VH), dpr);
}

/** Absolute public URL as someone outside this app would open it. */
export function publicUrl(origin: string, bucket: string, key: string): string {
  return origin + objectUrl(bucket, key);
}
