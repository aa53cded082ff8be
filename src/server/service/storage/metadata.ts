/**
 * Object metadata (one row per version) in the engine's database, above the engine seam:
 * tables `_storage_objects` and `_storage_state`, SQL built with Kysely, run asynchronously.
 *
 * Versions are issued by the database, not by an in-memory clock: inside the commit's write
 * transaction the new version is max(now in ms, the largest version so far + 1), and a unique
 * constraint on `version` makes two writers (two service instances on one PostgreSQL) that
 * raced for the same one fail; the loser retries with the next. The check "create vs update
 * access" runs in the same transaction as the insert.
 */
import { sql } from "kysely";
import type { SqlEngine, SqlTx } from "../engines/engine";
import { ensureSchema, kindOf } from "../engines/failures";

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
  latest(bucket: string, key: string): Promise<ObjectRow | undefined>;
  /** The newest version of each of `keys` that has one, in one read (a listing's page). */
  latestOf(bucket: string, keys: string[]): Promise<Map<string, ObjectRow>>;
  version(bucket: string, key: string, version: number): Promise<ObjectRow | undefined>;
  exists(bucket: string, key: string): Promise<boolean>;
  /** Every version of a key, newest first (empty when the key has none). */
  versions(bucket: string, key: string): Promise<ObjectRow[]>;
  /**
   * Records a finished upload as the newest version, if the caller may: `allow.create` for a
   * key with no version yet, `allow.update` for one that has. Versions are unique and increasing.
   */
  commit(row: Omit<ObjectRow, "version" | "createdAt">, allow: { create: boolean; update: boolean }): Promise<CommitOutcome>;
  /** Distinct keys in a bucket from a bound (inclusive or not) below an optional upper bound, sorted. */
  keys(bucket: string, from: string, inclusive: boolean, below: string | undefined, limit: number): Promise<string[]>;
  /** The sub-folders directly under `prefix` (each ending in `/`; keys from `prefix` below `below`), at most `limit`, in one read. */
  subfolders(bucket: string, prefix: string, below: string | undefined, limit: number): Promise<string[]>;
  /** Removes every version of a key; returns the removed rows (their files are the caller's to unlink). */
  deleteAll(bucket: string, key: string): Promise<ObjectRow[]>;
  files(bucket: string): Promise<Set<string>>;
  removeFile(bucket: string, file: string): Promise<void>;
  state(name: string): Promise<string | undefined>;
  setState(name: string, value: string): Promise<void>;
}

export const OBJECTS = "_storage_objects";
export const STATE = "_storage_state";
const COLUMNS = ["bucket", "key", "version", "file", "size", "content_type", "sha256", "created_at"] as const;

function toRow(r: unknown[]): ObjectRow {
  return {
    bucket: String(r[0]),
    key: String(r[1]),
    version: Number(r[2]),
    file: String(r[3]),
    size: Number(r[4]),
    contentType: String(r[5]),
    sha256: String(r[6]),
    createdAt: Number(r[7]),
  };
}

/** Creates the metadata tables when missing (also used by the migration). */
export async function createMetadataTables(engine: SqlEngine): Promise<void> {
  const b = engine.builder;
  // Keys compare in code-point order on both engines: folders are key ranges ("docs/" up to
  // "docs0"), and under a database's linguistic collation "x/docs/b" lies inside "x/Docs/"'s
  // range, so a folder's list, move and delete took in other folders (review 31a #1). The
  // engine's text type is that order (PostgreSQL: COLLATE "C", as Record text columns).
  const text = engine.dialect.columnType("text");
  await ensureSchema(engine, async (tx) => {
    await tx.run(
      b.schema
        .createTable(OBJECTS)
        .ifNotExists()
        .addColumn("bucket", text, (c) => c.notNull())
        .addColumn("key", text, (c) => c.notNull())
        .addColumn("version", "bigint", (c) => c.notNull().unique())
        .addColumn("file", "varchar", (c) => c.notNull().unique())
        .addColumn("size", "bigint", (c) => c.notNull())
        .addColumn("content_type", "varchar", (c) => c.notNull())
        .addColumn("sha256", "varchar", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint(`${OBJECTS}_pk`, ["bucket", "key", "version"])
        .compile(),
    );
    if (engine.dialect.name === "postgres") {
      // A table made before took the database's default collation: brought to "C" (its primary
      // key index is rebuilt with it), once.
      const { rows } = await tx.run(
        sql`select count(*) from information_schema.columns where table_schema = current_schema() and table_name = ${OBJECTS} and column_name in ('bucket', 'key') and coalesce(collation_name, '') <> 'C'`.compile(b),
      );
      if (Number(rows[0]?.[0] ?? 0) > 0) await tx.run(sql`alter table ${sql.table(OBJECTS)} alter column bucket type ${text}, alter column key type ${text}`.compile(b));
    }
    await tx.run(
      b.schema
        .createTable(STATE)
        .ifNotExists()
        .addColumn("name", "varchar", (c) => c.primaryKey())
        .addColumn("value", "varchar", (c) => c.notNull())
        .compile(),
    );
  });
}

/**
 * Inserts `row` as the newest version of its key, in `tx`: max(now in ms, the largest version
 * so far + 1). A unique violation means another instance took that version first (the caller
 * runs its transaction again).
 */
export async function insertVersion(engine: SqlEngine, tx: SqlTx, row: Omit<ObjectRow, "version" | "createdAt">, now = Date.now()): Promise<ObjectRow> {
  const b = engine.builder;
  const { rows } = await tx.run(
    b
      .insertInto(OBJECTS)
      .columns([...COLUMNS])
      .expression(
        b
          .selectFrom(OBJECTS)
          .select([
            sql.val(row.bucket).as("bucket"),
            sql.val(row.key).as("key"),
            sql<number>`greatest(cast(${now} as bigint), coalesce(max(version), 0) + 1)`.as("version"),
            sql.val(row.file).as("file"),
            sql`cast(${row.size} as bigint)`.as("size"),
            sql.val(row.contentType).as("content_type"),
            sql.val(row.sha256).as("sha256"),
            sql`cast(${now} as bigint)`.as("created_at"),
          ]),
      )
      .returning("version")
      .compile(),
  );
  return { ...row, version: Number(rows[0][0]), createdAt: now };
}

/** Runs a write that inserts versions, again when another instance took one of them first. */
export async function withVersionRetry<T>(engine: SqlEngine, write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (kindOf(engine.dialect, e) === "unique" && attempt < 5) continue;
      throw e;
    }
  }
}

export async function openMetadata(engine: SqlEngine): Promise<Metadata> {
  await createMetadataTables(engine);
  const b = engine.builder;
  const one = async (q: Parameters<SqlEngine["read"]>[0][number]) => (await engine.read([q]))[0].rows;
  const select = () => b.selectFrom(OBJECTS).select([...COLUMNS]);
  const latest = async (bucket: string, key: string) => {
    const rows = await one(select().where("bucket", "=", bucket).where("key", "=", key).orderBy("version", "desc").limit(1).compile());
    return rows[0] ? toRow(rows[0]) : undefined;
  };

  return {
    latest,
    async latestOf(bucket, keys) {
      const out = new Map<string, ObjectRow>();
      if (keys.length === 0) return out;
      // Each key's newest version, by the primary key (bucket, key, version) on both engines.
      const newest = b.selectFrom(`${OBJECTS} as n`).select(sql<number>`max(n.version)`.as("v")).whereRef("n.bucket", "=", `${OBJECTS}.bucket`).whereRef("n.key", "=", `${OBJECTS}.key`);
      const rows = await one(select().where("bucket", "=", bucket).where("key", "in", keys).where("version", "=", newest).compile());
      for (const r of rows) out.set(String(r[1]), toRow(r));
      return out;
    },
    async version(bucket, key, version) {
      const rows = await one(select().where("bucket", "=", bucket).where("key", "=", key).where("version", "=", version).compile());
      return rows[0] ? toRow(rows[0]) : undefined;
    },
    exists: async (bucket, key) => (await latest(bucket, key)) !== undefined,
    async versions(bucket, key) {
      const rows = await one(select().where("bucket", "=", bucket).where("key", "=", key).orderBy("version", "desc").compile());
      return rows.map(toRow);
    },
    async commit(row, allow) {
      return withVersionRetry(engine, () =>
        engine.write(async (tx): Promise<CommitOutcome> => {
          if (!(allow.create && allow.update)) {
            // Only a key's existence decides between the two: with both allowed it is not read.
            const found = await tx.run(b.selectFrom(OBJECTS).select("version").where("bucket", "=", row.bucket).where("key", "=", row.key).limit(1).compile());
            const exists = found.rows.length > 0;
            if (exists ? !allow.update : !allow.create) return { ok: false, exists };
          }
          return { ok: true, row: await insertVersion(engine, tx, row) };
        }),
      );
    },
    async keys(bucket, from, inclusive, below, limit) {
      let q = b.selectFrom(OBJECTS).select("key").distinct().where("bucket", "=", bucket).where("key", inclusive ? ">=" : ">", from);
      if (below !== undefined) q = q.where("key", "<", below);
      const rows = await one(q.orderBy("key").limit(limit).compile());
      return rows.map((r) => String(r[0]));
    },
    async subfolders(bucket, prefix, below, limit) {
      // Characters, not UTF-16 units: substr and strpos count characters on both engines.
      const after = sql`substr(key, cast(${[...prefix].length + 1} as integer))`;
      let q = b
        .selectFrom(OBJECTS)
        .select(sql<string>`substr(key, 1, cast(${[...prefix].length} as integer) + strpos(${after}, '/'))`.as("folder"))
        .distinct()
        .where("bucket", "=", bucket)
        .where("key", ">=", prefix)
        .where(sql<number>`strpos(${after}, '/')`, ">", 0);
      if (below !== undefined) q = q.where("key", "<", below);
      const rows = await one(q.orderBy("folder").limit(limit).compile());
      return rows.map((r) => String(r[0]));
    },
    async deleteAll(bucket, key) {
      return engine.write(async (tx) => {
        const { rows } = await tx.run(b.deleteFrom(OBJECTS).where("bucket", "=", bucket).where("key", "=", key).returning([...COLUMNS]).compile());
        return rows.map(toRow);
      });
    },
    async files(bucket) {
      const rows = await one(b.selectFrom(OBJECTS).select("file").where("bucket", "=", bucket).compile());
      return new Set(rows.map((r) => String(r[0])));
    },
    async removeFile(bucket, file) {
      await engine.write((tx) => tx.run(b.deleteFrom(OBJECTS).where("bucket", "=", bucket).where("file", "=", file).compile()));
    },
    async state(name) {
      const rows = await one(b.selectFrom(STATE).select("value").where("name", "=", name).compile());
      return rows[0] ? String(rows[0][0]) : undefined;
    },
    async setState(name, value) {
      await engine.write((tx) =>
        tx.run(
          b
            .insertInto(STATE)
            .values({ name, value })
            .onConflict((oc) => oc.column("name").doUpdateSet({ value }))
            .compile(),
        ),
      );
    },
  };
}

