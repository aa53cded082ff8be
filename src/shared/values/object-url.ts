/**
 * One way to name an object through the proxy and one thumbnail sizer, for records (image
 * cells, the panel) and storage (browser, lightbox) alike. Thumbnails are asked at the size they
 * are drawn times the device pixel ratio, snapped up to the service's size ladder (64…2048), the
 * sizes it keeps cached (issue 9.3); the service fits inside w × h and never enlarges.
 */
import { snapToLadder } from "../storage";

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
  const base = `/api/v0/storage/public/${encodeURIComponent(bucket)}/${key.split("/").map(encodeURIComponent).join("/")}`;
  return box ? `${base}?w=${box.w}&h=${box.h}` : base;
}
