/**
 * The Content-Type a multipart part was sent with, read from the raw start of the body.
 * busboy reports only `type/subtype` (parameters such as `charset` are dropped) and reports
 * `text/plain` both for a part that said so and for one that said nothing (RFC 7578's default),
 * so "Content-Type as uploaded" (decisions §7) needs the header itself. Only a bounded prefix of
 * the body is ever kept: the parts before the file are the small key field.
 */

/** How much of the body start is kept to find the file part's headers. */
export const SNIFF_BYTES = 64 * 1024;

/** The boundary of a multipart/form-data Content-Type header, if it has one. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? "");
  return m ? (m[1] ?? m[2]) : undefined;
}

/**
 * The raw Content-Type header of the part named `name`: a string, `null` when that part has
 * none, or `undefined` when the part's headers are not (wholly) inside `prefix`.
 */
export function partContentType(prefix: Buffer, boundary: string, name: string): string | null | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  let at = prefix.indexOf(delimiter);
  while (at >= 0) {
    const headStart = at + delimiter.length;
    // "--boundary--" ends the body.
    if (prefix.subarray(headStart, headStart + 2).toString("latin1") === "--") return undefined;
    const headEnd = prefix.indexOf("\r\n\r\n", headStart);
    if (headEnd < 0) return undefined;
    const lines = prefix.subarray(headStart, headEnd).toString("utf8").split("\r\n");
    let partName: string | undefined;
    let type: string | null = null;
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const field = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (field === "content-disposition") partName = /;\s*name="([^"]*)"/i.exec(value)?.[1] ?? /;\s*name=([^\s;]+)/i.exec(value)?.[1];
      else if (field === "content-type") type = value;
    }
    if (partName === name) return type;
    at = prefix.indexOf(delimiter, headEnd + 4);
  }
  return undefined;
}
