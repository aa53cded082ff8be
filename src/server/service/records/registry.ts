/**
 * The table registry: which Tables exist, their Fields (decisions §3), primary key and buckets.
 * Definitions live as JSON in one registry table of the service's SQLite file; each Table's
 * Records live in a real SQLite table (`rt_<id>`) with proper column types and indexes.
 */
import { type Kysely, sql } from "kysely";
import type { FieldInfo, FieldType } from "../../../shared/records";
import type { Sqlite } from "../db";

export interface FieldDef {
  key: string;
  type: FieldType;
  /** Every Field may be null unless it is the primary key (decisions §3). */
  nullable: boolean;
  /** image and attachment Fields: the bucket their object keys live in. */
  bucket?: string;
}

export interface TableDef {
  databaseId: string;
  slug: string;
  primaryKey: string;
  fields: FieldDef[];
  /** Fields to index besides the primary key (what the data is filtered and sorted by). */
  indexes?: string[];
}

export interface StoredTable extends TableDef {
  id: number;
  /** Name of the SQLite table holding the Records. */
  physical: string;
  byKey: Map<string, FieldDef>;
}

const REGISTRY = "bb_record_tables";
const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const SLUG = /^[A-Za-z0-9_-]{1,64}$/;

/** SQLite storage class per Field type; text-like columns compare by code point (BINARY). */
function columnType(type: FieldType): "text" | "real" | "integer" {
  if (type === "number") return "real";
  if (type === "boolean") return "integer";
  return "text";
}

export function fieldInfo(table: TableDef): FieldInfo[] {
  return table.fields.map((f) => ({
    key: f.key,
    type: f.type,
    nullable: f.nullable,
    primaryKey: f.key === table.primaryKey,
    ...(f.bucket ? { bucket: f.bucket } : {}),
  }));
}

export class TableRegistry {
  private tables = new Map<string, StoredTable>();

  constructor(
    private readonly sqlite: Sqlite,
    private readonly kysely: Kysely<any>,
  ) {
    sqlite.exec(
      `create table if not exists ${REGISTRY} (id integer primary key, database_id text not null, slug text not null, definition text not null, unique (database_id, slug))`,
    );
    const rows = sqlite.prepare(`select id, definition from ${REGISTRY} order by id`).all() as { id: number; definition: string }[];
    for (const row of rows) this.remember(row.id, JSON.parse(row.definition) as TableDef);
  }

  get(databaseId: string, slug: string): StoredTable | undefined {
    return this.tables.get(`${databaseId}/${slug}`);
  }

  list(): StoredTable[] {
    return [...this.tables.values()];
  }

  /** Creates the registry entry, the SQLite table and its indexes, in one transaction. */
  create(def: TableDef): StoredTable {
    validateDef(def);
    if (this.get(def.databaseId, def.slug)) throw new Error(`Table ${def.databaseId}/${def.slug} already exists`);
    return this.sqlite.transaction(() => {
      const info = this.sqlite
        .prepare(`insert into ${REGISTRY} (database_id, slug, definition) values (?, ?, ?)`)
        .run(def.databaseId, def.slug, JSON.stringify(def));
      const table = this.remember(Number(info.lastInsertRowid), def);
      let create = this.kysely.schema.createTable(table.physical);
      for (const f of def.fields) {
        create = create.addColumn(f.key, columnType(f.type), (col) => {
          let c = f.key === def.primaryKey ? col.primaryKey().notNull() : f.nullable ? col : col.notNull();
          if (columnType(f.type) === "text") c = c.modifyEnd(sql`collate binary`);
          return c;
        });
      }
      this.sqlite.exec(create.compile().sql);
      for (const key of def.indexes ?? []) {
        const ddl = this.kysely.schema.createIndex(`${table.physical}_${key}`).on(table.physical).column(key).compile();
        this.sqlite.exec(ddl.sql);
      }
      return table;
    })();
  }

  private remember(id: number, def: TableDef): StoredTable {
    const table: StoredTable = { ...def, id, physical: `rt_${id}`, byKey: new Map(def.fields.map((f) => [f.key, f])) };
    this.tables.set(`${def.databaseId}/${def.slug}`, table);
    return table;
  }
}

function validateDef(def: TableDef): void {
  if (!SLUG.test(def.databaseId) || !SLUG.test(def.slug)) throw new Error(`Bad database id or table slug: ${def.databaseId}/${def.slug}`);
  const keys = new Set<string>();
  for (const f of def.fields) {
    if (!IDENT.test(f.key)) throw new Error(`Bad field name "${f.key}": letters, digits and _ only`);
    if (keys.has(f.key)) throw new Error(`Duplicate field "${f.key}"`);
    keys.add(f.key);
  }
  if (!keys.has(def.primaryKey)) throw new Error(`Primary key "${def.primaryKey}" is not a field`);
  for (const k of def.indexes ?? []) if (!keys.has(k)) throw new Error(`Index on unknown field "${k}"`);
}
