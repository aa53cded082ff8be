/**
 * Pure helpers of resumable uploads in the browser (issue 22.5): which files go in parts, where
 * a session is remembered (so the same file dropped again after a reload finds it), and which
 * parts are still to send. The protocol is the local service's (src/shared/storage.ts).
 */

/** Files above one part (the service's 8 MiB) go in parts when the upstream is `resumable`; smaller ones in one request. */
export const RESUMABLE_MIN_BYTES = 8 * 1024 * 1024;
/** Parts sent at once: two keep the line busy while one waits for its answer. */
export const PARTS_IN_FLIGHT = 2;

export interface FileIdentity {
  name: string;
  size: number;
  lastModified: number;
}

export interface SavedSession {
  id: string;
  partSize: number;
  savedAt: number;
}

/** The same file to the same key: same bucket, key, name, size and modification time. */
export const sessionStorageKey = (bucket: string, key: string, f: FileIdentity) =>
  `baseboard.upload:${JSON.stringify([bucket, key, f.name, f.size, f.lastModified])}`;

export function parseSaved(text: string | null): SavedSession | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Partial<SavedSession>;
    return typeof v.id === "string" && typeof v.partSize === "number" && v.partSize > 0 ? { id: v.id, partSize: v.partSize, savedAt: Number(v.savedAt) || 0 } : undefined;
  } catch {
    return undefined;
  }
}

export const partCount = (size: number, partSize: number) => Math.ceil(size / partSize);

/** Byte range [start, end) of part n (1-based). */
export const partBounds = (size: number, partSize: number, n: number): [number, number] => [(n - 1) * partSize, Math.min(size, n * partSize)];

/** Parts not yet acknowledged, ascending. */
export function partsToSend(size: number, partSize: number, acked: number[]): number[] {
  const have = new Set(acked);
  return Array.from({ length: partCount(size, partSize) }, (_, i) => i + 1).filter((n) => !have.has(n));
}

/** Bytes the acknowledged parts hold. */
export function ackedBytes(size: number, partSize: number, acked: number[]): number {
  return [...new Set(acked)].reduce((sum, n) => {
    const [a, b] = partBounds(size, partSize, n);
    return sum + Math.max(0, b - a);
  }, 0);
}

/** An upload in parts this browser started and did not finish, as remembered (sessionStorageKey). */
export interface UnfinishedUpload {
  storageKey: string;
  bucket: string;
  key: string;
  name: string;
  size: number;
  session: SavedSession;
}

/** The remembered sessions of `bucket` whose key is in `folder` (its direct files), oldest first. */
export function unfinishedIn(entries: Iterable<[string, string | null]>, bucket: string, folder: string): UnfinishedUpload[] {
  const out: UnfinishedUpload[] = [];
  const prefix = folder === "" || folder.endsWith("/") ? folder : `${folder}/`;
  for (const [storageKey, text] of entries) {
    if (!storageKey.startsWith("baseboard.upload:")) continue;
    let id: unknown;
    try {
      id = JSON.parse(storageKey.slice("baseboard.upload:".length));
    } catch {
      continue;
    }
    if (!Array.isArray(id) || id[0] !== bucket || typeof id[1] !== "string" || typeof id[2] !== "string" || typeof id[3] !== "number") continue;
    const key = id[1];
    if (!key.startsWith(prefix) || key.slice(prefix.length).includes("/")) continue;
    const session = parseSaved(text);
    if (session) out.push({ storageKey, bucket, key, name: id[2], size: id[3], session });
  }
  return out.sort((a, b) => a.session.savedAt - b.session.savedAt);
}
