/**
 * Files uploaded or opened by key from this browser, kept in IndexedDB. Where the upstream has no
 * list extension (the hosted interface cannot list a bucket), these are the only files the app
 * can know about.
 * Raw IndexedDB in a few lines rather than a dependency: one store, keyed by [bucket, key].
 */
import type { StorageItem } from "./listing.utils";

const DB_NAME = "baseboard-storage";
const STORE = "uploads";

export interface LocalUpload extends StorageItem {
  bucket: string;
  key: string;
  /** The version uploaded or opened here; none for a key opened without one (the latest). */
  versionedKey?: string;
  size: number;
  contentType: string;
  lastModified: string;
}

let dbPromise: Promise<IDBDatabase> | undefined;

function openDb(): Promise<IDBDatabase> {
  dbPromise ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { keyPath: ["bucket", "key"] });
      store.createIndex("bucket", "bucket");
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => {
      dbPromise = undefined;
      reject(req.error ?? new Error("IndexedDB is not available in this browser."));
    };
  });
  return dbPromise;
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export async function rememberUpload(u: LocalUpload): Promise<void> {
  const db = await openDb();
  await done(db.transaction(STORE, "readwrite").objectStore(STORE).put(u));
}

export async function forgetUpload(bucket: string, key: string): Promise<void> {
  const db = await openDb();
  await done(db.transaction(STORE, "readwrite").objectStore(STORE).delete([bucket, key]));
}

export async function localUploads(bucket: string): Promise<LocalUpload[]> {
  const db = await openDb();
  const rows = await done(db.transaction(STORE, "readonly").objectStore(STORE).index("bucket").getAll(bucket));
  return (rows as LocalUpload[]).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
