/**
 * The two rules every JSON request body meets, in the service and the proxy alike: it is sent
 * as JSON (a form's `text/plain`, urlencoded or multipart body is not: review 48a #4, the people
 * and presence endpoints took any type), and its bytes are UTF-8 (review 48a #3: bytes that are
 * not were read as U+FFFD, so two different keys were stored as one).
 */
import { isUtf8 } from "node:buffer";
import { jsonPathAt, pathText } from "../shared/json-text";

/** application/json, or any `+json` type, whatever its charset parameter. */
export const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;

/** Why a body declared as `type` is not taken as JSON; undefined when it is (or no type is declared). */
export function notJsonType(type: string | undefined): string | undefined {
  if (type === undefined || type.trim() === "" || JSON_TYPE.test(type)) return undefined;
  return `Send the body as JSON with Content-Type: application/json (got ${type.split(";")[0].trim()}).`;
}

/** Why `bytes` are not UTF-8 text, naming where in the JSON the first bad byte is; undefined when they are. */
export function notUtf8(bytes: Buffer): string | undefined {
  if (isUtf8(bytes)) return undefined;
  const text = bytes.toString("utf8");
  // The first U+FFFD that the bytes do not hold as such (EF BF BD) is where decoding failed:
  // every character before it decoded to the bytes it came from.
  let at = text.indexOf("\ufffd");
  let offset = 0;
  while (at >= 0) {
    offset = Buffer.byteLength(text.slice(0, at));
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) break;
    at = text.indexOf("\ufffd", at + 1);
  }
  let path = "";
  try {
    if (at >= 0) path = pathText(jsonPathAt(text, at));
  } catch {
    // Not JSON past that point either: the byte alone.
  }
  return `${path ? `${path}: the` : "The"} body is not UTF-8 text at byte ${offset} (0x${(bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, "0")}; another encoding, such as Latin-1): send JSON encoded as UTF-8. The request was not run.`;
}

/**
 * Why a body sent with this Content-Encoding is not read; undefined when it is sent as is. No
 * server here decompresses a request (review 51a #4: a gzip body was read as its bytes, and a
 * plain one labelled gzip was taken as plain): refused, so what is stored is what was meant.
 */
export function notPlainBody(encoding: string | string[] | undefined): string | undefined {
  const e = (Array.isArray(encoding) ? encoding.join(", ") : (encoding ?? "")).trim().toLowerCase();
  if (e === "" || e === "identity") return undefined;
  return `The body is sent with Content-Encoding: ${e.slice(0, 40)}, which is not read here: send it uncompressed, without a Content-Encoding header. The request was not run.`;
}

/** The rules above for a JSON body read whole: sent as is, as JSON, in UTF-8; why not, or undefined. */
export function notJsonBody(headers: { "content-encoding"?: string | string[]; "content-type"?: string }, bytes: Buffer): string | undefined {
  return notPlainBody(headers["content-encoding"]) ?? notJsonType(headers["content-type"]) ?? notUtf8(bytes);
}
