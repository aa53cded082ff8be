/**
 * Writes a DATA_DIR as the SQLite-based version (main before the engine seam) left it: the same
 * DDL and encodings (booleans 0/1, json as text, datetimes in UTC), for the migration test.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { TableDef } from "../../records/registry";

export const OLD_TABLE: TableDef = {
  databaseId: "legacy",
  slug: "people",
  primaryKey: "id",
  fields: [
    { key: "id", type: "text", nullable: false },
    { key: "age", type: "number", nullable: true },
    { key: "active", type: "boolean", nullable: true },
    { key: "born", type: "date", nullable: true },
    { key: "seen", type: "datetime", nullable: true },
    { key: "tags", type: "json", nullable: true },
  ],
  indexes: ["age"],
};

export const OLD_ROWS = Array.from({ length: 2500 }, (_, i) => ({
  id: `P${String(i).padStart(5, "0")}`,
  age: i % 7 === 0 ? null : 20 + (i % 50) + 0.5,
  active: i % 5 === 0 ? null : i % 2 === 0,
  born: `19${String(50 + (i % 50)).padStart(2, "0")}-0${1 + (i % 9)}-1${i % 10}`,
  seen: i % 3 === 0 ? null : new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
  tags: i % 4 === 0 ? null : { n: i, list: ["a", "ü"] },
}));

export const OLD_OBJECT = { bucket: "public-assets", key: "legacy/hello.txt", version: 1700000000000, file: "legacy-file-1", content: "hello from sqlite" };

export function writeSqliteDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, "baseboard.sqlite"));
  db.pragma("journal_mode = WAL");
  db.exec(
    "create table if not exists bb_record_tables (id integer primary key, database_id text not null, slug text not null, definition text not null, unique (database_id, slug))",
  );
  db.prepare("insert into bb_record_tables (id, database_id, slug, definition) values (?, ?, ?, ?)").run(4, OLD_TABLE.databaseId, OLD_TABLE.slug, JSON.stringify(OLD_TABLE));
  db.exec(
    `create table "rt_4" ("id" text primary key not null collate binary, "age" real, "active" integer, "born" text collate binary, "seen" text collate binary, "tags" text collate binary)`,
  );
  db.exec(`create index "rt_4_age" on "rt_4" ("age")`);
  const insert = db.prepare(`insert into "rt_4" values (?, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (const r of OLD_ROWS) insert.run(r.id, r.age, r.active === null ? null : r.active ? 1 : 0, r.born, r.seen, r.tags === null ? null : JSON.stringify(r.tags));
  })();
  db.exec(`
    CREATE TABLE IF NOT EXISTS _storage_objects (
      bucket TEXT NOT NULL, key TEXT NOT NULL, version INTEGER NOT NULL, file TEXT NOT NULL UNIQUE,
      size INTEGER NOT NULL, content_type TEXT NOT NULL, sha256 TEXT NOT NULL, created_at INTEGER NOT NULL,
      PRIMARY KEY (bucket, key, version)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS _storage_state (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `);
  const o = OLD_OBJECT;
  const sha = createHash("sha256").update(o.content).digest("hex");
  db.prepare("insert into _storage_objects values (?, ?, ?, ?, ?, ?, ?, ?)").run(o.bucket, o.key, o.version, o.file, o.content.length, "text/plain", sha, o.version);
  db.prepare("insert into _storage_state values ('seeded', ?)").run("2024-01-01T00:00:00.000Z");
  db.close();
  const dir = path.join(dataDir, "storage", "objects", o.bucket);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, o.file), o.content);
}
