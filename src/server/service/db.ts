/**
 * The service's one SQLite file (records and storage metadata alike), opened in WAL mode, and a
 * Kysely instance over it so SQL is built by a query builder that also speaks PostgreSQL.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";

export type Sqlite = Database.Database;

export function openDatabase(dataDir: string, file = "baseboard.sqlite"): { sqlite: Sqlite; kysely: Kysely<any> } {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(path.join(dataDir, file));
  sqlite.pragma("journal_mode = WAL");
  // NORMAL in WAL mode survives a process crash (SIGKILL) without losing a committed write.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  const kysely = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { sqlite, kysely };
}
