/**
 * `w` and `h` for resizing (interface §4.4, decisions §7): query parameters or request headers
 * (a query parameter wins over a header of the same name), integers 1…4096.
 */
import { type Result, fail, ok } from "../../../../shared/errors";
import { MAX_RESIZE, MIN_RESIZE } from "../../../../shared/storage";

export interface ResizeBox {
  /** 0 = not constrained. */
  w: number;
  h: number;
}

function one(name: "w" | "h", value: unknown): Result<number> {
  if (value === undefined) return ok(0);
  // Exactly digits: " 10" (from w=%2010) or "+10" is refused like any other non-integer.
  if (typeof value !== "string" || !/^\d{1,5}$/.test(value)) {
    return fail("validation_error", `${name} must be one whole number of pixels from ${MIN_RESIZE} to ${MAX_RESIZE}.`);
  }
  const n = Number(value);
  if (n < MIN_RESIZE || n > MAX_RESIZE) return fail("validation_error", `${name}=${n} is out of range: use ${MIN_RESIZE} to ${MAX_RESIZE} pixels.`);
  return ok(n);
}

/** undefined when neither w nor h was asked for. */
export function parseResize(query: Record<string, unknown>, headers: Record<string, string | string[] | undefined>): Result<ResizeBox | undefined> {
  const w = one("w", query.w ?? headers.w);
  if (!w.ok) return w;
  const h = one("h", query.h ?? headers.h);
  if (!h.ok) return h;
  return ok(w.value || h.value ? { w: w.value, h: h.value } : undefined);
}

/**
 * The output size for an image of `width`×`height` (as stored; EXIF orientations 5–8 turn it a
 * quarter) fitted inside `box`, never enlarged. Computed here rather than left to sharp: its JPEG
 * shrink-on-load rounds the free side on its own (200×100 at h=10 came out 21×10), and the
 * aspect ratio must hold to the nearest pixel.
 */
export function targetSize(width: number, height: number, orientation: number, box: ResizeBox): { width: number; height: number } {
  const [w, h] = orientation >= 5 ? [height, width] : [width, height];
  const scale = Math.min(box.w ? box.w / w : Number.POSITIVE_INFINITY, box.h ? box.h / h : Number.POSITIVE_INFINITY, 1);
  if (scale === 1) return { width: w, height: h };
  return { width: box.w && box.w / w === scale ? box.w : Math.max(1, Math.round(w * scale)), height: box.h && box.h / h === scale ? box.h : Math.max(1, Math.round(h * scale)) };
}
