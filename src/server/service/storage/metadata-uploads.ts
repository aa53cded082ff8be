/**
 * Resumable upload sessions in the metadata store (issue 22.5): tables `_storage_uploads` (one
 * row per session) and `_storage_upload_parts` (one row per acknowledged part). A part's row is
 * written only after its blob is whole, so "acknowledged" always means "stored"; the state lives
 * in the engine's database (DuckDB or PostgreSQL), so it survives a restart of the service and
 * is shared by several instances on one PostgreSQL.
 */
import { sql } from "kysely";
import type { SqlEngine } from "../engines/engine";
import { ensureSchema } from "../engines/failures";

export const UPLOADS = "_storage_uploads";
export const UPLOAD_PARTS = "_storage_upload_parts";

export interface UploadSession {
  id: string;
  bucket: string;
  key: string;
  size: number;
  partSize: number;
  /** As declared at the start; the stored type is decided at completion (content-type.ts). */
  contentType: string | null;
  /** Who started it (the proxy's UPLOAD_OWNER_HEADER), null when nobody was named. */
  owner: string | null;
  /** The versioned key once completed (then a repeated complete answers it again). */
  completedKey: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface UploadsStore {
  create(s: Omit<UploadSession, "completedKey" | "createdAt" | "updatedAt">): Promise<UploadSession>;
  get(bucket: string, id: string): Promise<UploadSession | undefined>;
  /** Acknowledged part numbers with their sizes, ascending. */
  parts(id: string): Promise<{ n: number; size: number }[]>;
  /** Records a stored part (again: replaces it) and touches the session. */
  ackPart(id: string, n: number, size: number): Promise<void>;
  /** Forgets a part (its blob was replaced by one of the wrong length). */
  unackPart(id: string, n: number): Promise<void>;
  complete(id: string, versionedKey: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** Sessions not touched since `before` (ms). */
  stale(before: number): Promise<UploadSession[]>;
  ids(): Promise<Set<string>>;
}

const COLS = ["id", "bucket", "key", "size", "part_size", "content_type", "completed_key", "created_at", "updated_at", "owner"] as const;
const toSession = (r: unknown[]): UploadSession => ({
  id: String(r[0]),
  bucket: String(r[1]),
  key: String(r[2]),
  size: Number(r[3]),
  partSize: Number(r[4]),
  contentType: r[5] === null || r[5] === undefined ? null : String(r[5]),
  completedKey: r[6] === null || r[6] === undefined ? null : String(r[6]),
  createdAt: Number(r[7]),
  updatedAt: Number(r[8]),
  owner: r[9] === null || r[9] === undefined ? null : String(r[9]),
});

export async function openUploadsStore(engine: SqlEngine): Promise<UploadsStore> {
  const b = engine.builder;
  await ensureSchema(engine, async (tx) => {
    await tx.run(
      b.schema
        .createTable(UPLOADS)
        .ifNotExists()
        .addColumn("id", "varchar", (c) => c.primaryKey())
        .addColumn("bucket", "varchar", (c) => c.notNull())
        .addColumn("key", "varchar", (c) => c.notNull())
        .addColumn("size", "bigint", (c) => c.notNull())
        .addColumn("part_size", "bigint", (c) => c.notNull())
        .addColumn("content_type", "varchar")
        .addColumn("completed_key", "varchar")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addColumn("owner", "varchar")
        .compile(),
    );
    // Sessions tables made before sessions had owners (both engines know IF NOT EXISTS here).
    await tx.run(sql`alter table ${sql.table(UPLOADS)} add column if not exists owner varchar`.compile(b));
    await tx.run(
      b.schema
        .createTable(UPLOAD_PARTS)
        .ifNotExists()
        .addColumn("upload_id", "varchar", (c) => c.notNull())
        .addColumn("n", "integer", (c) => c.notNull())
        .addColumn("size", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint(`${UPLOAD_PARTS}_pk`, ["upload_id", "n"])
        .compile(),
    );
  });
  const one = async (q: Parameters<SqlEngine["read"]>[0][number]) => (await engine.read([q]))[0].rows;

  return {
    async create(s) {
      const now = Date.now();
      await engine.write((tx) =>
        tx.run(
          b
            .insertInto(UPLOADS)
            .values({ id: s.id, bucket: s.bucket, key: s.key, size: s.size, part_size: s.partSize, content_type: s.contentType, owner: s.owner, completed_key: null, created_at: now, updated_at: now })
            .compile(),
        ),
      );
      return { ...s, completedKey: null, createdAt: now, updatedAt: now };
    },
    async get(bucket, id) {
      const rows = await one(b.selectFrom(UPLOADS).select([...COLS]).where("id", "=", id).where("bucket", "=", bucket).compile());
      return rows[0] ? toSession(rows[0]) : undefined;
    },
    async parts(id) {
      const rows = await one(b.selectFrom(UPLOAD_PARTS).select(["n", "size"]).where("upload_id", "=", id).orderBy("n").compile());
      return rows.map((r) => ({ n: Number(r[0]), size: Number(r[1]) }));
    },
    async ackPart(id, n, size) {
      await engine.write(async (tx) => {
        await tx.run(
          b
            .insertInto(UPLOAD_PARTS)
            .values({ upload_id: id, n, size })
            .onConflict((oc) => oc.columns(["upload_id", "n"]).doUpdateSet({ size }))
            .compile(),
        );
        await tx.run(b.updateTable(UPLOADS).set({ updated_at: Date.now() }).where("id", "=", id).compile());
      });
    },
    async unackPart(id, n) {
      await engine.write((tx) => tx.run(b.deleteFrom(UPLOAD_PARTS).where("upload_id", "=", id).where("n", "=", n).compile()));
    },
    async complete(id, versionedKey) {
      await engine.write(async (tx) => {
        await tx.run(b.updateTable(UPLOADS).set({ completed_key: versionedKey, updated_at: Date.now() }).where("id", "=", id).compile());
        await tx.run(b.deleteFrom(UPLOAD_PARTS).where("upload_id", "=", id).compile());
      });
    },
    async remove(id) {
      await engine.write(async (tx) => {
        await tx.run(b.deleteFrom(UPLOAD_PARTS).where("upload_id", "=", id).compile());
        await tx.run(b.deleteFrom(UPLOADS).where("id", "=", id).compile());
      });
    },
    async stale(before) {
      const rows = await one(b.selectFrom(UPLOADS).select([...COLS]).where("updated_at", "<", sql<number>`cast(${before} as bigint)`).compile());
      // Parts acknowledged while their session was being aborted belong to nothing: drop them too.
      await engine.write((tx) => tx.run(b.deleteFrom(UPLOAD_PARTS).where("upload_id", "not in", b.selectFrom(UPLOADS).select("id")).compile()));
      return rows.map(toSession);
    },
    async ids() {
      const rows = await one(b.selectFrom(UPLOADS).select("id").compile());
      return new Set(rows.map((r) => String(r[0])));
    },
  };
}
