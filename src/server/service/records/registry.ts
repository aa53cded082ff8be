/**
 * The table registry: which Tables exist, their Fields (decisions §3), primary key and buckets.
 * Definitions live as JSON in one registry table (`bb_record_tables`) of the engine's database;
 * each Table's Records live in a real table (`rt_<id>`) with proper column types. The registry
 * is read once at start-up and kept in memory; `create` writes through. Definitions never change
 * once made, so a Table another service instance created (several instances on one PostgreSQL)
 * is simply looked up in the database on a miss (`find`). Engine-neutral: column types come
 * from the dialect.
 */
import { sql } from "kysely";
import type { FieldInfo, FieldType } from "../../../shared/records";
import type { SqlEngine, SqlTx } from "../engines/engine";
import { ensureSchema } from "../engines/failures";

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
  /** Fields to index besides the primary key, on engines whose dialect wants indexes. */
  indexes?: string[];
}

export interface StoredTable extends TableDef {
  id: number;
  /** Name of the database table holding the Records. */
  physical: string;
  byKey: Map<string, FieldDef>;
}

export const REGISTRY_TABLE = "bb_record_tables";
const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const SLUG = /^[A-Za-z0-9_-]{1,64}$/;

export function fieldInfo(table: TableDef): FieldInfo[] {
  return table.fields.map((f) => ({
    key: f.key,
    type: f.type,
    nullable: f.nullable,
    primaryKey: f.key === table.primaryKey,
    ...(f.bucket ? { bucket: f.bucket } : {}),
  }));
}

export function physicalName(id: number): string {
  return `rt_${id}`;
}

export class TableRegistry {
  private tables = new Map<string, StoredTable>();

  private constructor(private readonly engine: SqlEngine) {}

  /** Creates the registry table when missing and loads every definition. */
  static async open(engine: SqlEngine): Promise<TableRegistry> {
    const registry = new TableRegistry(engine);
    const b = engine.builder;
    await ensureSchema(engine, async (tx) => {
      await tx.run(
        b.schema
          .createTable(REGISTRY_TABLE)
          .ifNotExists()
          .addColumn("id", "integer", (c) => c.primaryKey())
          .addColumn("database_id", "varchar", (c) => c.notNull())
          .addColumn("slug", "varchar", (c) => c.notNull())
          .addColumn("definition", "varchar", (c) => c.notNull())
          .addUniqueConstraint(`${REGISTRY_TABLE}_name`, ["database_id", "slug"])
          .compile(),
      );
    });
    // Only an engine with a native CSV load makes load tables (the import's fast path).
    if (engine.dialect.csvLoad) await dropUnadoptedLoads(engine);
    await registry.reload();
    return registry;
  }

  async reload(): Promise<void> {
    const [{ rows }] = await this.engine.read([this.engine.builder.selectFrom(REGISTRY_TABLE).select(["id", "definition"]).orderBy("id").compile()]);
    this.tables.clear();
    for (const [id, definition] of rows) this.remember(Number(id), JSON.parse(String(definition)) as TableDef);
  }

  get(databaseId: string, slug: string): StoredTable | undefined {
    return this.tables.get(`${databaseId}/${slug}`);
  }

  /** A Table by name: from memory, else from the database (created by another instance since). */
  async find(databaseId: string, slug: string): Promise<StoredTable | undefined> {
    const known = this.get(databaseId, slug);
    if (known) return known;
    const [{ rows }] = await this.engine.read([this.lookup(databaseId, slug)]);
    return rows.length ? this.get(databaseId, slug) ?? this.remember(Number(rows[0][0]), JSON.parse(String(rows[0][1])) as TableDef) : undefined;
  }

  private lookup(databaseId: string, slug: string) {
    return this.engine.builder.selectFrom(REGISTRY_TABLE).select(["id", "definition"]).where("database_id", "=", databaseId).where("slug", "=", slug).compile();
  }

  list(): StoredTable[] {
    return [...this.tables.values()];
  }

  /** Every Table, including those another instance created since (definitions never change). */
  async listAll(): Promise<StoredTable[]> {
    const [{ rows }] = await this.engine.read([this.engine.builder.selectFrom(REGISTRY_TABLE).select(["id", "definition"]).orderBy("id").compile()]);
    for (const [id, definition] of rows) {
      const def = JSON.parse(String(definition)) as TableDef;
      if (!this.get(def.databaseId, def.slug)) this.remember(Number(id), def);
    }
    return this.list();
  }

  /**
   * Creates the registry entry, the table and its indexes inside the caller's transaction
   * (or a new one), so a failure leaves no half-made Table. The id is the database's.
   */
  async create(def: TableDef, outer?: SqlTx, options: CreateOptions = {}): Promise<StoredTable> {
    validateDef(def);
    if (this.get(def.databaseId, def.slug)) throw new TableExistsError(def);
    const b = this.engine.builder;
    const dialect = this.engine.dialect;
    const make = async (tx: SqlTx) => {
      // Writes are serialized (across instances too), so this check holds until the commit.
      if ((await tx.run(this.lookup(def.databaseId, def.slug))).rows.length) throw new TableExistsError(def);
      const { rows } = await tx.run(
        b
          .insertInto(REGISTRY_TABLE)
          .columns(["id", "database_id", "slug", "definition"])
          .expression(
            b
              .selectFrom(REGISTRY_TABLE)
              .select([
                sql<number>`coalesce(max(id), 0) + 1`.as("id"),
                sql.val(def.databaseId).as("database_id"),
                sql.val(def.slug).as("slug"),
                sql.val(JSON.stringify(def)).as("definition"),
              ]),
          )
          .returning("id")
          .compile(),
      );
      const id = Number(rows[0][0]);
      const physical = physicalName(id);
      if (options.adopt) await tx.run(b.schema.alterTable(options.adopt).renameTo(physical).compile());
      else await tx.run(physicalTable(this.engine, def, physical, options.primaryKeyLater === true));
      if (dialect.secondaryIndexes) {
        for (const key of def.indexes ?? []) await tx.run(b.schema.createIndex(`${physical}_${key}`).on(physical).column(key).compile());
      }
      return id;
    };
    const id = outer ? await make(outer) : await this.engine.write(make);
    return this.remember(id, def);
  }

  /** Forgets a table created in a transaction that was then rolled back. */
  forget(table: StoredTable): void {
    if (this.tables.get(`${table.databaseId}/${table.slug}`) === table) this.tables.delete(`${table.databaseId}/${table.slug}`);
  }

  private remember(id: number, def: TableDef): StoredTable {
    const table: StoredTable = { ...def, id, physical: physicalName(id), byKey: new Map(def.fields.map((f) => [f.key, f])) };
    this.tables.set(`${def.databaseId}/${def.slug}`, table);
    return table;
  }
}

export interface CreateOptions {
  /**
   * Leave the primary key's index out: the caller fills the table in the same transaction and
   * then runs `primaryKeyIndex` (dialect.primaryKeyAfterLoad), before it commits.
   */
  primaryKeyLater?: boolean;
  /**
   * A table made by `physicalTable(…, primaryKeyLater: true)` under a `LOAD_TABLE_PREFIX` name
   * and filled in an earlier transaction: it becomes the Table's, renamed, instead of a new one.
   */
  adopt?: string;
}

/**
 * Names of tables an import fills before it registers them (see `adopt`). One left behind by
 * a process that stopped in between belongs to nothing: `dropUnadoptedLoads` removes it.
 */
export const LOAD_TABLE_PREFIX = "bb_load_";

/** CREATE TABLE for a Table's columns under `name` (the primary key's index left out when asked). */
export function physicalTable(engine: SqlEngine, def: TableDef, name: string, primaryKeyLater: boolean) {
  let create = engine.builder.schema.createTable(name);
  for (const f of def.fields) {
    create = create.addColumn(f.key, engine.dialect.columnType(f.type), (col) =>
      f.key === def.primaryKey ? (primaryKeyLater ? col.notNull() : col.primaryKey().notNull()) : f.nullable ? col : col.notNull(),
    );
  }
  return create.compile();
}

/** Drops load tables no Table adopted (their import stopped before it could). */
export async function dropUnadoptedLoads(engine: SqlEngine): Promise<void> {
  const b = engine.builder;
  const [{ rows }] = await engine.read([
    b.selectFrom("information_schema.tables").select("table_name").where("table_name", "like", `${LOAD_TABLE_PREFIX}%`).compile(),
  ]);
  if (rows.length === 0) return;
  await engine.write(async (tx) => {
    for (const [name] of rows) await tx.run(b.schema.dropTable(String(name)).ifExists().compile());
  });
}

/** The unique index that stands for the primary key of a table created with `primaryKeyLater`. */
export function primaryKeyIndex(engine: SqlEngine, table: StoredTable) {
  return engine.builder.schema.createIndex(`bb_pk_${table.physical}`).unique().on(table.physical).column(table.primaryKey).compile();
}

/** The Table was created meanwhile (by a concurrent request or another instance): use it instead. */
export class TableExistsError extends Error {
  constructor(def: TableDef) {
    super(`Table ${def.databaseId}/${def.slug} already exists`);
  }
}

export function validateDef(def: TableDef): void {
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
