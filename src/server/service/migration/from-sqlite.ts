/**
 * Users keep their data (issue 10 item 4): a DATA_DIR written by a version that kept
 * everything in SQLite (`baseboard.sqlite`: the registry `bb_record_tables`, one `rt_<id>`
 * table per Table, `_storage_objects`, `_storage_state`) is copied into the engine on the first
 * start, once, automatically, in one transaction (all or nothing), and the old file is then
 * renamed aside (`baseboard.sqlite.migrated`). Engine-neutral: it writes through the seam, so
 * the same code moves a SQLite directory into PostgreSQL.
 *
 * better-sqlite3 stays a dependency for this alone.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { SqlEngine, SqlTx } from "../engines/engine";
import { TableRegistry, type TableDef } from "../records/registry";
import { createMetadataTables, OBJECTS, STATE } from "../storage/metadata";

export const SQLITE_FILE = "baseboard.sqlite";
export const MIGRATED_SUFFIX = ".migrated";
const BATCH = 4096;

export interface MigrationReport {
  tables: number;
  records: number;
  objects: number;
  keptAs: string;
}

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(name) !== undefined;
}

/** Rows of a SQLite statement in batches, converted per column. */
async function* batches(stmt: Database.Statement, convert: ((v: unknown) => unknown)[]): AsyncIterable<unknown[][]> {
  let batch: unknown[][] = [];
  for (const row of stmt.raw(true).iterate() as Iterable<unknown[]>) {
    batch.push(row.map((v, i) => convert[i](v)));
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

const same = (v: unknown) => (typeof v === "bigint" ? Number(v) : v);
/** The old store kept booleans as 0/1. */
const bool = (v: unknown) => (v === null ? null : v === 1 || v === 1n);

/**
 * Migrates DATA_DIR/baseboard.sqlite when present; returns what it did, or undefined when
 * there was nothing to migrate. A start interrupted after the copy committed but before the
 * rename finds the data already there and only renames.
 */
export async function migrateFromSqlite(dataDir: string, engine: SqlEngine): Promise<MigrationReport | undefined> {
  const file = path.join(dataDir, SQLITE_FILE);
  if (!fs.existsSync(file)) return undefined;
  const registry = await TableRegistry.open(engine);
  await createMetadataTables(engine);
  const report: MigrationReport = { tables: 0, records: 0, objects: 0, keptAs: `${SQLITE_FILE}${MIGRATED_SUFFIX}` };
  const already = registry.list().length > 0 || (await engine.read([engine.builder.selectFrom(OBJECTS).select("file").limit(1).compile()]))[0].rows.length > 0;
  if (!already) {
    const db = new Database(file, { fileMustExist: true });
    const made: ReturnType<TableRegistry["list"]> = [];
    try {
      await engine.write(async (tx: SqlTx) => {
        if (hasTable(db, "bb_record_tables")) {
          const defs = db.prepare("select id, definition from bb_record_tables order by id").all() as { id: number; definition: string }[];
          for (const { id, definition } of defs) {
            const def = JSON.parse(definition) as TableDef;
            const table = await registry.create(def, tx);
            made.push(table);
            const columns = def.fields.map((f) => f.key);
            const select = db.prepare(`select ${columns.map((c) => `"${c}"`).join(", ")} from "rt_${id}"`);
            report.records += await tx.append(table.physical, columns, batches(select, def.fields.map((f) => (f.type === "boolean" ? bool : same))));
            report.tables++;
          }
        }
        if (hasTable(db, "_storage_objects")) {
          const cols = ["bucket", "key", "version", "file", "size", "content_type", "sha256", "created_at"];
          const select = db.prepare(`select ${cols.join(", ")} from _storage_objects`);
          report.objects = await tx.append(OBJECTS, cols, batches(select, cols.map(() => same)));
        }
        if (hasTable(db, "_storage_state")) {
          await tx.append(STATE, ["name", "value"], batches(db.prepare("select name, value from _storage_state"), [same, same]));
        }
      });
    } catch (e) {
      for (const t of made) registry.forget(t);
      throw e;
    } finally {
      db.close();
    }
  }
  // Kept aside, never deleted: the user decides when it can go.
  for (const suffix of ["", "-wal", "-shm"]) {
    const from = `${file}${suffix}`;
    if (fs.existsSync(from)) fs.renameSync(from, path.join(dataDir, `${SQLITE_FILE}${MIGRATED_SUFFIX}${suffix}`));
  }
  return report;
}
