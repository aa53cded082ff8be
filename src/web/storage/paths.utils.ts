/**
 * Object keys as the bucket browser sees them: folders exist only as key prefixes (interface
 * §2.6, decisions §7), so every folder, breadcrumb and upload key is derived here from strings.
 * Folders travel without a trailing slash ("docs/2024"); "" is the bucket's root.
 */

import { validateObjectKey } from "../../shared/storage";

/** "v<digits>/" is the version prefix the service puts in front of an uploaded key. */
const VERSION_PREFIX = /^v\d+\//;

export function normalizeFolder(folder: string | undefined | null): string {
  if (!folder) return "";
  return folder
    .split("/")
    .filter((s) => s !== "" && s !== "." && s !== "..")
    .join("/");
}

/** The list prefix of a folder: "" for the root, "docs/" otherwise. */
export function folderPrefix(folder: string): string {
  const f = normalizeFolder(folder);
  return f ? `${f}/` : "";
}

export function joinKey(folder: string, name: string): string {
  return folderPrefix(folder) + name;
}

export function parentFolder(folder: string): string {
  const parts = normalizeFolder(folder).split("/");
  parts.pop();
  return parts.join("/");
}

/** Last segment of a key or folder. */
export function baseName(key: string): string {
  const trimmed = key.endsWith("/") ? key.slice(0, -1) : key;
  const i = trimmed.lastIndexOf("/");
  return i < 0 ? trimmed : trimmed.slice(i + 1);
}

/** Lower-case extension without the dot ("" when there is none or the name starts with it). */
export function extensionOf(key: string): string {
  const name = baseName(key);
  const i = name.lastIndexOf(".");
  return i <= 0 ? "" : name.slice(i + 1).toLowerCase();
}

export function stripVersion(key: string): string {
  return key.replace(VERSION_PREFIX, "");
}

export function versionOf(versionedKey: string): string | undefined {
  const m = /^v(\d+)\//.exec(versionedKey);
  return m ? m[1] : undefined;
}

export interface Crumb {
  label: string;
  folder: string;
}

export function breadcrumbs(bucket: string, folder: string): Crumb[] {
  const parts = normalizeFolder(folder).split("/").filter(Boolean);
  const crumbs: Crumb[] = [{ label: bucket, folder: "" }];
  parts.forEach((p, i) => crumbs.push({ label: p, folder: parts.slice(0, i + 1).join("/") }));
  return crumbs;
}

/** Each path segment URL-encoded, slashes kept, for /v0/storage/.../{bucket}/{key}. */
export function encodeKeyPath(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}

/**
 * A folder name as the list extension reports it may be a full prefix ("docs/img/"), a name
 * relative to the listed prefix ("img/" or "img"); reduce all of them to the child's name.
 */
export function folderNameFromList(entry: string, prefix: string): string {
  let s = entry;
  if (prefix && s.startsWith(prefix)) s = s.slice(prefix.length);
  if (s.endsWith("/")) s = s.slice(0, -1);
  const i = s.indexOf("/");
  return i < 0 ? s : s.slice(0, i);
}

/**
 * One folder level of a flat key list: the files directly in `folder` and the names of its
 * sub-folders, as the list extension would answer. Used where the upstream cannot list and the
 * browser only knows the keys it uploaded itself.
 */
export function levelFromKeys<T extends { key: string }>(
  items: readonly T[],
  folder: string,
): { files: T[]; folders: string[] } {
  const prefix = folderPrefix(folder);
  const files: T[] = [];
  const folders = new Set<string>();
  for (const item of items) {
    if (!item.key.startsWith(prefix)) continue;
    const rest = item.key.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) files.push(item);
    else folders.add(rest.slice(0, slash));
  }
  return { files, folders: [...folders].sort() };
}

/**
 * The key a file is uploaded under: the current folder plus the file's name, or, for a dropped
 * directory, its path relative to the drop (react-dropzone reports it as "./dir/a.png" or
 * "/dir/a.png").
 */
export function uploadKeyFor(folder: string, fileName: string, relativePath?: string): string {
  let rel = relativePath && relativePath.includes("/") ? relativePath : fileName;
  rel = rel.replace(/^\.?\/+/, "");
  if (!rel) rel = fileName;
  return joinKey(folder, rel);
}

/**
 * Why a dropped or chosen file cannot be uploaded under `key` (the service's own rules, checked
 * before anything is sent), said to someone who named a file rather than typed a key; or null.
 */
export function uploadKeyProblem(key: string): string | null {
  const v = validateObjectKey(key);
  if (v.ok) return null;
  if (/%(25)*(2e|2f|5c|00)/i.test(key)) {
    return "The name contains “%” followed by two hex digits that encode . / \\ or NUL (like %2F), which the service refuses: an intermediary could decode it into another name. Rename the file, then upload it again.";
  }
  return `${v.error.message.replace(/^The object key/, "The key")} Rename the file, then upload it again.`;
}

/**
 * Checks a new folder name typed by the user (one or more segments, "a/b" allowed) and returns
 * the message that says what to change, or null when it is fine.
 */
export function folderNameProblem(
  name: string,
  { existing = [], atRoot = false }: { existing?: readonly string[]; atRoot?: boolean } = {},
): string | null {
  const n = name.trim();
  if (!n) return "Type a folder name.";
  if (n.startsWith("/") || n.endsWith("/")) return "Leave out the leading and trailing “/”.";
  if (n.includes("\\")) return "Use “/” to separate folders, not “\\”.";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(n)) return "Remove the control characters from the name.";
  const segs = n.split("/");
  if (segs.some((s) => s === "")) return "The name has an empty part between two “/”.";
  if (segs.some((s) => s === "." || s === "..")) return "“.” and “..” cannot be folder names.";
  if (atRoot && /^v\d+$/.test(segs[0])) return "A top-level name like “v123” is reserved for file versions; pick another.";
  if (new TextEncoder().encode(n).length > 900) return "The name is too long (keys are limited to 1024 bytes).";
  if (existing.includes(segs[0]) && segs.length === 1) return `A folder named “${n}” already exists here.`;
  // The service's own key rules (the one contract), for what the checks above do not name: a
  // folder it would refuse every file of was made, and the refusal came only at the upload.
  if (/%(25)*(2e|2f|5c|00)/i.test(n)) return "“%” followed by two hex digits that encode . / \\ or NUL (like %2F) cannot be in a name: the service refuses it, since an intermediary could decode it into another name.";
  const v = validateObjectKey(`${atRoot ? "" : "f/"}${n}/x`);
  if (!v.ok) return v.error.message.replace(/^The object key/, "The name");
  return null;
}

/** Names of the pending folders (and their ancestors) directly under `folder`. */
export function pendingChildren(pending: readonly string[], folder: string): string[] {
  const prefix = folderPrefix(folder);
  const out = new Set<string>();
  for (const p of pending) {
    if (!p.startsWith(prefix) || p === folder) continue;
    const rest = p.slice(prefix.length);
    const name = rest.split("/")[0];
    if (name) out.add(name);
  }
  return [...out];
}
