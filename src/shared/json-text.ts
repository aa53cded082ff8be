/**
 * How a request's JSON body is read: one rule for the service, which runs the request, and the
 * proxy, which checks it first (permissions, the trail). Were they to read one body two ways,
 * a body the proxy could not read (say, with a byte-order mark the service skips) would be
 * checked as if it were empty and run as sent.
 */

export type JsonText = { ok: true; value: unknown } | { ok: false; message: string };

/** A leading byte-order mark is skipped; blank text is no body (`value` undefined). */
export function parseJsonText(text: string): JsonText {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (t.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(t) };
  } catch (err) {
    return { ok: false, message: `The request body is not valid JSON: ${(err as Error).message}.` };
  }
}

/** The body as an object, or undefined when it is none (no body, not JSON, an array, a scalar). */
export function jsonObjectOf(body: Buffer | string | undefined): Record<string, unknown> | undefined {
  if (body === undefined || body.length === 0) return undefined;
  const read = parseJsonText(typeof body === "string" ? body : body.toString("utf8"));
  const v = read.ok ? read.value : undefined;
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
