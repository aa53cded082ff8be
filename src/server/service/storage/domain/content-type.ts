/**
 * The Content-Type an object is stored with: the one its upload part declared, or (when the
 * part declared none, which busboy reports as text/plain, or a generic octet-stream) a guess
 * from the key's extension, so `curl -F file=@photo.png` still serves as an image.
 */
const byExtension: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  tif: "image/tiff",
  tiff: "image/tiff",
  ico: "image/x-icon",
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  xml: "application/xml",
  zip: "application/zip",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
};

const TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";
// type/subtype with optional parameters (token or quoted-string values); no CR, LF or other controls.
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\\\u0000-\\u001f\\u007f]*"))*$`);

/** Whether `type` is a media type (type/subtype, optional parameters), at most 255 characters. */
export const isMediaType = (type: string) => type.length <= 255 && MEDIA_TYPE.test(type.trim());

/**
 * `declared` is the part's Content-Type header as sent (undefined when it had none). It is kept
 * as uploaded, parameters included (`text/plain;charset=utf-8` comes back so), with only the
 * type/subtype lower-cased (so the active-content check below cannot be dodged by `Text/HTML`).
 * Missing, malformed or `application/octet-stream`: a guess from the key's extension.
 */
export function contentTypeFor(declared: string | undefined, key: string): string {
  const type = declared?.trim();
  const ext = /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase();
  const guess = ext ? byExtension[ext] : undefined;
  if (!type || type.length > 255 || !MEDIA_TYPE.test(type) || type.toLowerCase() === "application/octet-stream") {
    return guess ?? "application/octet-stream";
  }
  const semi = type.indexOf(";");
  return semi < 0 ? type.toLowerCase() : type.slice(0, semi).toLowerCase() + type.slice(semi);
}

/** Types a browser would run script in if opened directly: served sandboxed. */
export const isActiveContent = (type: string) => /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)/.test(type);
