/** The uploads in parts this browser remembers (localStorage, upload-parts.ts), read and forgotten. */
import { type UnfinishedUpload, unfinishedIn } from "./upload-parts.utils";

export type { UnfinishedUpload };

const remembered = (): [string, string | null][] => {
  try {
    const ls = window.localStorage;
    return Array.from({ length: ls.length }, (_, i) => ls.key(i)).flatMap((k) => (k ? [[k, ls.getItem(k)] as [string, string | null]] : []));
  } catch {
    return [];
  }
};

export const unfinishedUploads = (bucket: string, folder: string) => unfinishedIn(remembered(), bucket, folder);

export function forgetUnfinished(u: UnfinishedUpload): void {
  try {
    window.localStorage.removeItem(u.storageKey);
  } catch {
    /* nothing kept, nothing to forget */
  }
}
