/**
 * Listing one folder level (decisions §7 list extension), S3-style: keys under the prefix whose
 * remainder has no `/` are items, the others collapse into their first sub-folder. Paging walks
 * the sorted keys and jumps over a whole folder at once, so a page costs about `limit` lookups
 * however many files the folders hold. Pure: the (async) key source is passed in.
 */
import { type Result, fail, ok } from "../../../../shared/errors";

export type ListEntry = { kind: "item"; key: string } | { kind: "folder"; prefix: string };

/** Sorted distinct keys >= (or >) `from` and below `below`, at most `limit` of them. */
export type KeySource = (from: string, inclusive: boolean, below: string | undefined, limit: number) => string[] | Promise<string[]>;

/** The smallest string greater than every string starting with `prefix` (code-point order), if any. */
export function prefixUpperBound(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length) {
    const cp = points.pop()!.codePointAt(0)!;
    if (cp < 0x10ffff) {
      const next = cp === 0xd7ff ? 0xe000 : cp + 1;
      return points.join("") + String.fromCodePoint(next);
    }
  }
  return undefined;
}

export interface Cursor {
  /** The last entry name of the previous page (a key, or a folder prefix ending in `/`). */
  after: string;
  /** The first page gave every sub-folder already: the pages after it give none again. */
  foldersGiven?: boolean;
}

export const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c.foldersGiven ? { a: c.after, f: 1 } : { a: c.after }), "utf8").toString("base64url");

export function decodeCursor(raw: string): Result<Cursor> {
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as { a?: unknown; f?: unknown };
    if (typeof parsed.a === "string") return ok(parsed.f === 1 ? { after: parsed.a, foldersGiven: true } : { after: parsed.a });
  } catch {
    // fall through
  }
  return fail("validation_error", "The cursor is not one this service returned: start again without a cursor.");
}

export async function listPage(prefix: string, cursor: Cursor | undefined, limit: number, source: KeySource): Promise<{ entries: ListEntry[]; next?: Cursor }> {
  const below = prefixUpperBound(prefix);
  let from = prefix;
  let inclusive = true;
  if (cursor) {
    const folder = cursor.after.endsWith("/");
    // After a folder "a/b/", continue at "a/b0": '0' is the character right after '/'.
    from = folder ? `${cursor.after.slice(0, -1)}0` : cursor.after;
    inclusive = folder;
    if (from < prefix) {
      from = prefix;
      inclusive = true;
    }
  }
  const entries: ListEntry[] = [];
  const want = limit + 1;
  scan: while (entries.length < want) {
    const asked = want - entries.length;
    const batch = await source(from, inclusive, below, asked);
    for (const key of batch) {
      const slash = key.indexOf("/", prefix.length);
      if (slash >= 0) {
        const folder = key.slice(0, slash + 1);
        entries.push({ kind: "folder", prefix: folder });
        from = `${folder.slice(0, -1)}0`;
        inclusive = true;
        continue scan;
      }
      entries.push({ kind: "item", key });
      from = key;
      inclusive = false;
    }
    if (batch.length < asked) break;
  }
  if (entries.length <= limit) return { entries };
  const page = entries.slice(0, limit);
  const last = page[page.length - 1];
  return { entries: page, next: { after: last.kind === "item" ? last.key : last.prefix } };
}
