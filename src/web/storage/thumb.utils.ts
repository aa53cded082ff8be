/**
 * Image sizes asked of the service. Thumbnails are requested at the size they are drawn times
 * the device pixel ratio, so they are sharp on high-density screens and no bigger than needed;
 * the service fits the image inside w × h and never enlarges it (decisions §7). Each side is
 * then snapped up to the service's size ladder (64…2048), the sizes it keeps cached (issue 9.3).
 */
import { type Box, objectUrl as objectUrlOf, pixelBox } from "../../shared/values";

// One objectUrl and one sizer for records and storage: they live in the shared value model.
export { type Box, MAX_SIDE, objectUrl, pixelBox } from "../../shared/values";

/** Share of the viewport the lightbox image may take; storage.css (.st-lightbox-img) matches. */
export const LIGHTBOX_VW = 0.84;
export const LIGHTBOX_VH = 0.72;

/** The lightbox asks for the box it draws the image in, in device pixels. */
export function lightboxBox(viewportWidth: number, viewportHeight: number, dpr: number): Box {
  return pixelBox(Math.max(100, viewportWidth * LIGHTBOX_VW), Math.max(100, viewportHeight * LIGHTBOX_VH), dpr);
}

/** Absolute public URL as someone outside this app would open it. */
export function publicUrl(origin: string, bucket: string, key: string): string {
  return origin + objectUrlOf(bucket, key);
}
