/**
 * Storage jobs in the metadata store (issue 22.2): table `_storage_jobs`, and the batch steps
 * that change objects together with the job's progress in ONE transaction, so a job killed at
 * any moment resumes exactly where its last committed step ended (idempotent per object).
 *
 * A move renames rows (every version keeps its number and its blob): each file is readable
 * under its old name until the transaction commits and under its new one after, never neither.
 */
import { sql } from "kysely";
import type { SqlEngine, SqlTx } from "../engines/engine";
import { ensureSchema } from "../engines/failures";
import type { JobAction, Selection } from "./domain/jobs/job-request.utils";
import { MAX_KEY_BYTES, utf8Length } from "../../../shared/storage";
import { OBJECTS, type ObjectRow, insertVersion, withVersionRetry } from "./metadata";

export const JOBS = "_storage_jobs";
export type JobState = "running" | "done" | "failed" | "cancelled";

export interface JobRow {
  id: string;
  bucket: string;
  action: JobAction;
  from: string;
  to: string;
  overwrite: boolean;
  state: JobState;
  done: number;
  total: number;
  /** The last key finished ("" before the first). */
  cursor: string;
  error: string | null;
  createdAt: number;
  updatedAt: number;
}

const COLS = ["id", "bucket", "action", "from_key", "to_key", "overwrite", "state", "done", "total", "cursor", "error", "created_at", "updated_at"] as const;
const toJob = (r: unknown[]): JobRow => ({
  id: String(r[0]),
  bucket: String(r[1]),
  action: String(r[2]) as JobAction,
  from: String(r[3]),
  to: String(r[4]),
  overwrite: Number(r[5]) === 1,
  state: String(r[6]) as JobState,
  done: Number(r[7]),
  total: Number(r[8]),
  cursor: String(r[9]),
  error: r[10] === null || r[10] === undefined ? null : String(r[10]),
  createdAt: Number(r[11]),
  updatedAt: Number(r[12]),
});

/** A step stopped because the job is no longer running (cancelled meanwhile). */
export type StepOutcome = { kind: "stopped" } | { kind: "conflict"; key: string } | { kind: "tooLong"; key: string } | { kind: "ok"; removedFiles: string[] };

export interface JobsStore {
  create(job: Omit<JobRow, "state" | "done" | "cursor" | "error" | "createdAt" | "updatedAt">): Promise<JobRow>;
  get(bucket: string, id: string): Promise<JobRow | undefined>;
  running(): Promise<JobRow[]>;
  /** Sets the end state of a running job; false when it was not running any more. */
  finish(id: string, state: Exclude<JobState, "running">, error?: string): Promise<boolean>;
  /** Distinct keys of the selection after `cursor`, sorted. */
  nextKeys(bucket: string, s: Selection, cursor: string, limit: number): Promise<string[]>;
  count(bucket: string, s: Selection): Promise<number>;
  /** Whether the selection holds any key outside `except` (one key read, not a count). */
  holdsOther(bucket: string, s: Selection, except: Selection): Promise<boolean>;
  /** The selection's longest key in bytes of UTF-8, if it holds any. */
  longestKey(bucket: string, s: Selection): Promise<string | undefined>;
  /** A key of the selection whose destination already exists, if any. */
  firstConflict(bucket: string, s: Selection, from: string, to: string): Promise<string | undefined>;
  /** Renames the keys in (cursor, last] of the selection; records progress in the same transaction. */
  moveStep(job: JobRow, s: Selection, last: string, keys: number): Promise<StepOutcome>;
  /** Deletes the keys in (cursor, last]; returns their files, for the caller to remove after. */
  deleteStep(job: JobRow, s: Selection, last: string, keys: number): Promise<StepOutcome>;
  /**
   * Records copies whose blobs are made as the newest versions of their destinations, with the
   * job's progress to `last`, in one transaction; "stopped" (nothing recorded) when the job is
   * no longer running at its cursor. The caller removes the blobs of a copy not recorded.
   */
  copyStep(job: JobRow, made: Omit<ObjectRow, "version" | "createdAt">[], last: string, keys: number): Promise<StepOutcome>;
}

export async function openJobsStore(engine: SqlEngine): Promise<JobsStore> {
  const b = engine.builder;
  await ensureSchema(engine, async (tx) => {
    await tx.run(
      b.schema
        .createTable(JOBS)
        .ifNotExists()
        .addColumn("id", "varchar", (c) => c.primaryKey())
        .addColumn("bucket", "varchar", (c) => c.notNull())
        .addColumn("action", "varchar", (c) => c.notNull())
        .addColumn("from_key", "varchar", (c) => c.notNull())
        .addColumn("to_key", "varchar", (c) => c.notNull())
        .addColumn("overwrite", "integer", (c) => c.notNull())
        .addColumn("state", "varchar", (c) => c.notNull())
        .addColumn("done", "bigint", (c) => c.notNull())
        .addColumn("total", "bigint", (c) => c.notNull())
        .addColumn("cursor", "varchar", (c) => c.notNull())
        .addColumn("error", "varchar")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .compile(),
    );
  });
  const one = async (q: Parameters<SqlEngine["read"]>[0][number]) => (await engine.read([q]))[0].rows;
  const inSelection = (q: any, s: Selection, column = "key") => (s.kind === "key" ? q.where(column, "=", s.key) : q.where(column, ">=", s.lo).where(column, "<", s.hi));
  /** Inside a step's transaction: is the job still running at the cursor we think it is? */
  const stillMine = async (tx: SqlTx, job: JobRow) => {
    const { rows } = await tx.run(b.selectFrom(JOBS).select(["state", "cursor"]).where("id", "=", job.id).compile());
    return rows.length === 1 && rows[0][0] === "running" && String(rows[0][1]) === job.cursor;
  };
  const progress = (tx: SqlTx, job: JobRow, last: string, keys: number) =>
    tx.run(
      b
        .updateTable(JOBS)
        // Files added to the selection while it runs are taken too: the total grows with them, so
        // that it never says more done than there are (review 51a #3: "605 of 602").
        .set({ cursor: last, done: sql`done + ${keys}`, total: sql`CASE WHEN total < done + ${keys} THEN done + ${keys} ELSE total END`, updated_at: Date.now() })
        .where("id", "=", job.id)
        .compile(),
    );
  const range = (q: any, job: JobRow, s: Selection, last: string, column = "key") => {
    const r = inSelection(q, s, column);
    return s.kind === "key" ? r : r.where(column, ">", job.cursor).where(column, "<=", last);
  };
  /** The destination of column `col` (qualify it inside subqueries, where a bare "key" is the inner table's). */
  const dest = (from: string, to: string, col = "key") => sql<string>`${to} || substr(${sql.ref(col)}, cast(${[...from].length + 1} as integer))`;

  return {
    async create(job) {
      const now = Date.now();
      const row: JobRow = { ...job, state: "running", done: 0, cursor: "", error: null, createdAt: now, updatedAt: now };
      await engine.write((tx) =>
        tx.run(
          b
            .insertInto(JOBS)
            .values({
              id: row.id,
              bucket: row.bucket,
              action: row.action,
              from_key: row.from,
              to_key: row.to,
              overwrite: row.overwrite ? 1 : 0,
              state: row.state,
              done: 0,
              total: row.total,
              cursor: "",
              error: null,
              created_at: now,
              updated_at: now,
            })
            .compile(),
        ),
      );
      return row;
    },
    async get(bucket, id) {
      const rows = await one(b.selectFrom(JOBS).select([...COLS]).where("id", "=", id).where("bucket", "=", bucket).compile());
      return rows[0] ? toJob(rows[0]) : undefined;
    },
    async running() {
      const rows = await one(b.selectFrom(JOBS).select([...COLS]).where("state", "=", "running").orderBy("created_at").compile());
      return rows.map(toJob);
    },
    async finish(id, state, error) {
      return engine.write(async (tx) => {
        const { rows } = await tx.run(
          b
            .updateTable(JOBS)
            .set({ state, error: error ?? null, updated_at: Date.now() })
            .where("id", "=", id)
            .where("state", "=", "running")
            .returning("id")
            .compile(),
        );
        return rows.length > 0;
      });
    },
    async nextKeys(bucket, s, cursor, limit) {
      let q = inSelection(b.selectFrom(OBJECTS).select("key").distinct().where("bucket", "=", bucket), s);
      if (cursor !== "") q = q.where("key", ">", cursor);
      const rows = await one(q.orderBy("key").limit(limit).compile());
      return rows.map((r) => String(r[0]));
    },
    async count(bucket, s) {
      const rows = await one(inSelection(b.selectFrom(OBJECTS).select(sql`count(distinct key)`.as("n")).where("bucket", "=", bucket), s).compile());
      return Number(rows[0][0]);
    },
    async holdsOther(bucket, s, except) {
      const outside = (q: any) => (except.kind === "key" ? q.where("key", "<>", except.key) : q.where((eb: any) => eb.or([eb("key", "<", except.lo), eb("key", ">=", except.hi)])));
      const rows = await one(outside(inSelection(b.selectFrom(OBJECTS).select("key").where("bucket", "=", bucket), s)).limit(1).compile());
      return rows.length > 0;
    },
    async longestKey(bucket, s) {
      const rows = await one(inSelection(b.selectFrom(OBJECTS).select("key").where("bucket", "=", bucket), s).orderBy(engine.dialect.byteLength(sql.ref("key")), "desc").limit(1).compile());
      return rows[0] ? String(rows[0][0]) : undefined;
    },
    async firstConflict(bucket, s, from, to) {
      const src = inSelection(b.selectFrom(`${OBJECTS} as s`).select("s.key").where("s.bucket", "=", bucket), s, "s.key");
      const rows = await one(
        src
          .where((eb: any) =>
            eb.exists(
              eb
                .selectFrom(`${OBJECTS} as t`)
                .select("t.key")
                .where("t.bucket", "=", bucket)
                .whereRef("t.key", "=", dest(from, to, "s.key") as any),
            ),
          )
          .orderBy("s.key")
          .limit(1)
          .compile(),
      );
      return rows[0] ? String(rows[0][0]) : undefined;
    },
    async moveStep(job, s, last, keys) {
      return engine.write(async (tx): Promise<StepOutcome> => {
        if (!(await stillMine(tx, job))) return { kind: "stopped" };
        if (utf8Length(job.to) > utf8Length(job.from)) {
          // A name made longer than keys may be (one uploaded since the job was checked at its start):
          // no endpoint could read, sign or delete it after (review 46a #1).
          const long = await tx.run(
            range(b.selectFrom(OBJECTS).select("key").where("bucket", "=", job.bucket), job, s, last)
              .where(engine.dialect.byteLength(dest(job.from, job.to)), ">", MAX_KEY_BYTES)
              .limit(1)
              .compile(),
          );
          if (long.rows.length > 0) return { kind: "tooLong", key: String(long.rows[0][0]) };
        }
        // Destinations that exist already: refused, or replaced (every version) when asked.
        const clash = await tx.run(
          range(b.selectFrom(`${OBJECTS} as s`).select(dest(job.from, job.to, "s.key").as("d")).where("s.bucket", "=", job.bucket), job, s, last, "s.key")
            .where((eb: any) => eb.exists(eb.selectFrom(`${OBJECTS} as t`).select("t.key").where("t.bucket", "=", job.bucket).whereRef("t.key", "=", dest(job.from, job.to, "s.key") as any)))
            .distinct()
            .orderBy("d")
            .compile(),
        );
        const removedFiles: string[] = [];
        if (clash.rows.length > 0) {
          if (!job.overwrite) return { kind: "conflict", key: String(clash.rows[0][0]) };
          const gone = await tx.run(
            b
              .deleteFrom(OBJECTS)
              .where("bucket", "=", job.bucket)
              .where(
                "key",
                "in",
                clash.rows.map((r) => String(r[0])),
              )
              .returning("file")
              .compile(),
          );
          removedFiles.push(...gone.rows.map((r) => String(r[0])));
        }
        await tx.run(range(b.updateTable(OBJECTS).set({ key: dest(job.from, job.to) }).where("bucket", "=", job.bucket), job, s, last).compile());
        await progress(tx, job, last, keys);
        return { kind: "ok", removedFiles };
      });
    },
    async deleteStep(job, s, last, keys) {
      return engine.write(async (tx): Promise<StepOutcome> => {
        if (!(await stillMine(tx, job))) return { kind: "stopped" };
        const gone = await tx.run(range(b.deleteFrom(OBJECTS).where("bucket", "=", job.bucket), job, s, last).returning("file").compile());
        await progress(tx, job, last, keys);
        return { kind: "ok", removedFiles: gone.rows.map((r) => String(r[0])) };
      });
    },
    async copyStep(job, made, last, keys) {
      return withVersionRetry(engine, () =>
        engine.write(async (tx): Promise<StepOutcome> => {
          if (!(await stillMine(tx, job))) return { kind: "stopped" };
          if (!job.overwrite && made.length > 0) {
            // Made since the step looked (an upload meanwhile): refused, as the job was asked.
            const { rows } = await tx.run(
              b
                .selectFrom(OBJECTS)
                .select("key")
                .where("bucket", "=", job.bucket)
                .where(
                  "key",
                  "in",
                  made.map((m) => m.key),
                )
                .orderBy("key")
                .limit(1)
                .compile(),
            );
            if (rows.length > 0) return { kind: "conflict", key: String(rows[0][0]) };
          }
          const now = Date.now();
          for (const row of made) await insertVersion(engine, tx, row, now);
          await progress(tx, job, last, keys);
          return { kind: "ok", removedFiles: [] };
        }),
      );
    },
  };
}
