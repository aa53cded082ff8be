/**
 * The rows of one folder: sub-folders and files merged from the list pages (or from the keys this
 * browser uploaded), then filtered by name and sorted, folders first as in any file manager.
 */
import { typeLabel } from "./format.utils";
import { baseName, folderNameFromList, folderPrefix, joinKey } from "./paths.utils";

/** One item of GET /v0/storage/list (extension, decisions §7). */
export interface StorageItem {
  key: string;
  versionedKey?: string;
  size?: number;
  contentType?: string;
  etag?: string;
  lastModified?: string;
}

export interface ListPage {
  items: StorageItem[];
  folders: string[];
  nextCursor?: string | null;
}

export type Entry =
  | { kind: "folder"; name: string; folder: string; pending?: boolean }
  | ({ kind: "file"; name: string } & StorageItem);

export type SortKey = "name" | "size" | "type" | "date";
export type SortDir = "asc" | "desc";
export interface SortSpec {
  by: SortKey;
  dir: SortDir;
}

/**
 * Entries of `folder` from list pages; `extraFolders` are folders the user just created here that
 * have no file yet (a folder only exists through its keys).
 */
export function entriesFromPages(pages: readonly ListPage[], folder: string, extraFolders: readonly string[] = []): Entry[] {
  const prefix = folderPrefix(folder);
  const seen = new Set<string>();
  const out: Entry[] = [];
  const addFolder = (name: string, pending: boolean) => {
    if (!name || seen.has(`d:${name}`)) return;
    seen.add(`d:${name}`);
    out.push({ kind: "folder", name, folder: joinKey(folder, name), pending: pending || undefined });
  };
  for (const page of pages) for (const f of page.folders ?? []) addFolder(folderNameFromList(f, prefix), false);
  for (const f of extraFolders) addFolder(f, true);
  for (const page of pages) {
    for (const item of page.items ?? []) {
      if (seen.has(`f:${item.key}`)) continue;
      seen.add(`f:${item.key}`);
      out.push({ kind: "file", name: baseName(item.key), ...item });
    }
  }
  return out;
}

export function filterEntries(entries: readonly Entry[], text: string): Entry[] {
  const q = text.trim().toLowerCase();
  if (!q) return [...entries];
  return entries.filter((e) => e.name.toLowerCase().includes(q));
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

function compareFiles(a: Extract<Entry, { kind: "file" }>, b: Extract<Entry, { kind: "file" }>, by: SortKey): number {
  switch (by) {
    case "size":
      return (a.size ?? -1) - (b.size ?? -1);
    case "date":
      return (Date.parse(a.lastModified ?? "") || 0) - (Date.parse(b.lastModified ?? "") || 0);
    case "type":
      return collator.compare(typeLabel(a.contentType, a.key), typeLabel(b.contentType, b.key));
    default:
      return collator.compare(a.name, b.name);
  }
}

/** Folders first (by name), then files by the chosen column; ties broken by name, then key. */
export function sortEntries(entries: readonly Entry[], sort: SortSpec): Entry[] {
  const sign = sort.dir === "asc" ? 1 : -1;
  return [...entries].sort((a, b) => {
    if (a.kind !== b.kind) return a.kind === "folder" ? -1 : 1;
    if (a.kind === "folder" || b.kind === "folder") {
      const c = collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      return sort.by === "name" ? sign * c : c;
    }
    const c = compareFiles(a, b, sort.by);
    if (c !== 0) return sign * c;
    const byName = collator.compare(a.name, b.name);
    if (byName !== 0) return sign * byName;
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  });
}

export function nextSort(current: SortSpec, by: SortKey): SortSpec {
  if (current.by === by) return { by, dir: current.dir === "asc" ? "desc" : "asc" };
  // Newest and largest first is what one wants when switching to those columns.
  return { by, dir: by === "date" || by === "size" ? "desc" : "asc" };
}
