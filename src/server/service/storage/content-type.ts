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

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

export function contentTypeFor(declared: string | undefined, key: string): string {
  const type = declared?.trim().toLowerCase();
  const ext = /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase();
  const guess = ext ? byExtension[ext] : undefined;
  if (!type || !MEDIA_TYPE.test(type) || type === "application/octet-stream" || type === "text/plain") {
    return guess ?? (type && MEDIA_TYPE.test(type) ? type : "application/octet-stream");
  }
  return type;
}

/** Types a browser would run script in if opened directly: served sandboxed. */
export const isActiveContent = (type: string) => /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)/.test(type);
