/**
 * What the user typed or pasted in "Open by key", made into an object key: a plain key, a
 * versioned key (`v<timestamp>/<key>`), or a whole URL of the file (the public or a signed one,
 * copied from elsewhere), with or without a leading slash or percent-encoding.
 */
import { parseObjectKey } from "../../../shared/storage";

export interface KeyToOpen {
  /** What is asked of the service: the versioned key when one was given, else the key. */
  key: string;
  /** The unversioned key (the catalogue's entry). */
  baseKey: string;
  versioned: boolean;
}

/** `/v0/storage/public/{bucket}/` or `/v0/storage/sign/{bucket}/` in a pasted URL. */
const FILE_PATH = /\/v0\/storage\/(?:public|sign)\/([^/]+)\/(.+)$/;

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function parseKeyInput(bucket: string, text: string): { ok: true; value: KeyToOpen } | { ok: false; message: string } {
  let raw = text.trim();
  if (!raw) return { ok: false, message: "Type or paste the key of a file, such as photos/cat.jpg." };
  if (/^https?:\/\//i.test(raw)) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, message: "This is not a valid URL." };
    }
    const m = FILE_PATH.exec(url.pathname);
    if (!m) return { ok: false, message: "This URL is not the address of a file (…/v0/storage/public/{bucket}/{key})." };
    if (decode(m[1]) !== bucket) return { ok: false, message: `This URL is of a file in the bucket “${decode(m[1])}”, not “${bucket}”.` };
    raw = m[2].split("/").map(decode).join("/");
  } else {
    raw = raw.replace(/^\/+/, "");
  }
  const parsed = parseObjectKey(raw);
  if (!parsed.ok) return { ok: false, message: parsed.error.message };
  return { ok: true, value: { key: raw, baseKey: parsed.value.key, versioned: parsed.value.version !== undefined } };
}
