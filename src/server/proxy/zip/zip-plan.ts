/**
 * What a "download as zip" asks for, checked before anything streams: a bucket and up to
 * MAX_ITEMS selected keys or folders ("x/"), each a plain key (no dot segments, no leading "/").
 * Pure: the handler (zip-download.ts) does the I/O.
 */
import { ZIP_NAME } from "../../../shared/storage";

export const MAX_ITEMS = 10_000;
/** Files a folder may expand to, in all, so that one click cannot walk a whole bucket forever. */
export const MAX_FILES = 100_000;

export interface ZipRequest {
  bucket: string;
  /** Files by key, folders ending in "/". */
  items: string[];
  /** The download's file name, without ".zip". */
  name: string;
}

export type Parsed = { ok: true; request: ZipRequest } | { ok: false; message: string };

const badKey = (k: string) => k === "" || k.startsWith("/") || k.split("/").some((s, i, all) => s === "." || s === ".." || (s === "" && i !== all.length - 1));

export function parseZipRequest(body: unknown): Parsed {
  if (!body || typeof body !== "object") return { ok: false, message: 'The body must be JSON: {"bucket": "<name>", "items": ["<key>", "<folder>/", …]}.' };
  const b = body as Record<string, unknown>;
  if (typeof b.bucket !== "string" || b.bucket === "") return { ok: false, message: '"bucket" must name a bucket.' };
  if (!Array.isArray(b.items) || b.items.length === 0) return { ok: false, message: '"items" must list at least one key or folder ("name/").' };
  if (b.items.length > MAX_ITEMS) return { ok: false, message: `At most ${MAX_ITEMS.toLocaleString("en")} items go in one zip; this asked for ${b.items.length.toLocaleString("en")}. Select fewer, or select their folder.` };
  const items: string[] = [];
  for (const item of b.items) {
    if (typeof item !== "string" || badKey(item)) return { ok: false, message: `Not a key or folder: ${JSON.stringify(item).slice(0, 200)}. Keys have no leading "/" and no "." or ".." segments.` };
    if (!items.includes(item)) items.push(item);
  }
  // An item inside a folder also asked for goes in once, with the folder (it was in the zip twice).
  const kept = items.filter((item) => !items.some((other) => other !== item && other.endsWith("/") && item.startsWith(other)));
  items.splice(0, items.length, ...kept);
  // Letters of any script are kept (Über Datei): the name goes out through contentDisposition's UTF-8
  // form. One it cannot use is refused, saying why, not replaced unsaid (review 49a #5); a name
  // ending in ".zip" has it once.
  let name = b.bucket.replace(/[^\w.-]/g, "_");
  if (b.name !== undefined && b.name !== null) {
    if (typeof b.name !== "string" || !ZIP_NAME.test(b.name.replace(/\.zip$/i, ""))) {
      return { ok: false, message: `"name" is the download's file name: 1 to 100 letters, digits, spaces, dots, dashes or underscores, at least one a letter or digit (no "/", quotes or line breaks)${typeof b.name === "string" ? `; ${JSON.stringify(b.name.slice(0, 60))} is not one` : ""}. Leave it out to name it after the bucket.` };
    }
    name = b.name.replace(/\.zip$/i, "");
  }
  return { ok: true, request: { bucket: b.bucket, items, name } };
}

/**
 * The path of a file inside the zip: relative to the folder the selection was made in (the
 * common parent of the items), so a selection in "photos/2024/" unpacks as "a.jpg", "trip/b.jpg".
 */
export function commonFolder(items: readonly string[]): string {
  const parents = items.map((k) => {
    const trimmed = k.endsWith("/") ? k.slice(0, -1) : k;
    const i = trimmed.lastIndexOf("/");
    return i < 0 ? "" : trimmed.slice(0, i + 1);
  });
  let common = parents[0] ?? "";
  for (const p of parents) while (!p.startsWith(common)) common = common.slice(0, common.slice(0, -1).lastIndexOf("/") + 1);
  return common;
}

export function entryName(key: string, base: string): string {
  return key.startsWith(base) ? key.slice(base.length) : key;
}

/**
 * The name of the list of files left out: "_not-included.txt", or when a file of the selection
 * has that name, "_not-included (2).txt" and on (review 33a #3: two entries of one name, and an
 * unzip kept only the list).
 */
export function reportName(taken: ReadonlySet<string>): string {
  let name = "_not-included.txt";
  for (let n = 2; taken.has(name); n++) name = `_not-included (${n}).txt`;
  return name;
}

/** A download name a browser keeps as is (RFC 6266 with an ASCII fallback). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}.zip"; filename*=UTF-8''${encodeURIComponent(name)}.zip`;
}
