/**
 * Object metadata in the service's SQLite file (tables prefixed `_storage_`): one row per
 * version. Synchronous better-sqlite3 statements, so a check-then-write (create vs update access,
 * the version clock) runs as one uninterruptible step of the event loop.
 */
import type { Sqlite } from "../db";

export interface ObjectRow {
  bucket: string;
  key: string;
  version: number;
  /** File name under the bucket's objects directory (never derived from the key). */
  file: string;
  size: number;
  contentType: string;
  /** sha256 of the content, hex. */
  sha256: string;
  createdAt: number;
}

export type CommitOutcome = { ok: true; row: ObjectRow } | { ok: false; exists: boolean };

export interface Metadata {
  latest(bucket: string, key: string): ObjectRow | undefined;
  version(bucket: string, key: string, version: number): ObjectRow | undefined;
  exists(bucket: string, key: string): boolean;
  /**
   * Records a finished upload as the newest version, if the caller may: `allowCreate` for a
   * key with no version yet, `allowUpdate` for one that has. Versions are unique and increasing.
   */
  commit(row: Omit<ObjectRow, "version" | "createdAt">, allow: { create: boolean; update: boolean }): CommitOutcome;
  /** Distinct keys in a bucket from a bound (inclusive or not) below an optional upper bound, sorted. */
  keys(bucket: string, from: string, inclusive: boolean, below: string | undefined, limit: number): string[];
  /** Removes every version of a key; returns the removed rows (their files are the caller's to unlink). */
  deleteAll(bucket: string, key: string): ObjectRow[];
  files(bucket: string): Set<string>;
  removeFile(bucket: string, file: string): void;
  state(name: string): string | undefined;
  setState(name: string, value: string): void;
}

const COLUMNS = "bucket, key, version, file, size, content_type AS contentType, sha256, created_at AS createdAt";

export function openMetadata(sqlite: Sqlite): Metadata {
  sqlite.exec(`
    CREATE TABLE IF NOT EXISTS _storage_objects (
      bucket TEXT NOT NULL,
      key TEXT NOT NULL,
      version INTEGER NOT NULL,
      file TEXT NOT NULL UNIQUE,
      size INTEGER NOT NULL,
      content_type TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (bucket, key, version)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS _storage_state (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `);
  const latest = sqlite.prepare(`SELECT ${COLUMNS} FROM _storage_objects WHERE bucket = ? AND key = ? ORDER BY version DESC LIMIT 1`);
  const byVersion = sqlite.prepare(`SELECT ${COLUMNS} FROM _storage_objects WHERE bucket = ? AND key = ? AND version = ?`);
  const insert = sqlite.prepare(
    "INSERT INTO _storage_objects (bucket, key, version, file, size, content_type, sha256, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const maxVersion = sqlite.prepare("SELECT max(version) AS v FROM _storage_objects");
  const keysIncl = sqlite.prepare("SELECT DISTINCT key FROM _storage_objects WHERE bucket = ? AND key >= ? AND key < ? ORDER BY key LIMIT ?").pluck();
  const keysExcl = sqlite.prepare("SELECT DISTINCT key FROM _storage_objects WHERE bucket = ? AND key > ? AND key < ? ORDER BY key LIMIT ?").pluck();
  const keysInclOpen = sqlite.prepare("SELECT DISTINCT key FROM _storage_objects WHERE bucket = ? AND key >= ? ORDER BY key LIMIT ?").pluck();
  const keysExclOpen = sqlite.prepare("SELECT DISTINCT key FROM _storage_objects WHERE bucket = ? AND key > ? ORDER BY key LIMIT ?").pluck();
  const deleteKey = sqlite.prepare(`DELETE FROM _storage_objects WHERE bucket = ? AND key = ? RETURNING ${COLUMNS}`);
  const filesOf = sqlite.prepare("SELECT file FROM _storage_objects WHERE bucket = ?").pluck();
  const removeFile = sqlite.prepare("DELETE FROM _storage_objects WHERE bucket = ? AND file = ?");
  const getState = sqlite.prepare("SELECT value FROM _storage_state WHERE name = ?").pluck();
  const setState = sqlite.prepare("INSERT INTO _storage_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value");

  // Versions are millisecond timestamps, bumped by one when two uploads finish in the same
  // millisecond (or the clock went back), so no two uploads ever get the same versioned key.
  let lastVersion = (maxVersion.get() as { v: number | null }).v ?? 0;
  const nextVersion = () => {
    lastVersion = Math.max(Date.now(), lastVersion + 1);
    return lastVersion;
  };

  const commit = sqlite.transaction((row: Omit<ObjectRow, "version" | "createdAt">, allow: { create: boolean; update: boolean }): CommitOutcome => {
    const exists = latest.get(row.bucket, row.key) !== undefined;
    if (exists ? !allow.update : !allow.create) return { ok: false, exists };
    const full: ObjectRow = { ...row, version: nextVersion(), createdAt: Date.now() };
    insert.run(full.bucket, full.key, full.version, full.file, full.size, full.contentType, full.sha256, full.createdAt);
    return { ok: true, row: full };
  });

  return {
    latest: (bucket, key) => latest.get(bucket, key) as ObjectRow | undefined,
    version: (bucket, key, version) => byVersion.get(bucket, key, version) as ObjectRow | undefined,
    exists: (bucket, key) => latest.get(bucket, key) !== undefined,
    commit: (row, allow) => commit.immediate(row, allow),
    keys(bucket, from, inclusive, below, limit) {
      if (below === undefined) return (inclusive ? keysInclOpen : keysExclOpen).all(bucket, from, limit) as string[];
      return (inclusive ? keysIncl : keysExcl).all(bucket, from, below, limit) as string[];
    },
    deleteAll: sqlite.transaction((bucket: string, key: string) => deleteKey.all(bucket, key) as ObjectRow[]),
    files: (bucket) => new Set(filesOf.all(bucket) as string[]),
    removeFile: (bucket, file) => {
      removeFile.run(bucket, file);
    },
    state: (name) => getState.get(name) as string | undefined,
    setState: (name, value) => {
      setState.run(name, value);
    },
  };
}
