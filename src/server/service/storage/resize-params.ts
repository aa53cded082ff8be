/**
 * `w` and `h` for resizing (interface §4.4, decisions §7): query parameters or request headers
 * (a query parameter wins over a header of the same name), integers 1…4096.
 */
import { type Result, fail, ok } from "../../../shared/errors";
import { MAX_RESIZE, MIN_RESIZE } from "../../../shared/storage";

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
