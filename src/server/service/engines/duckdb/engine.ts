/**
 * The embedded default engine: one DuckDB file under DATA_DIR holding Records, the table
 * registry and storage metadata. `@duckdb/node-api` runs every statement on DuckDB's own
 * threads, so the event loop never waits for a query.
 *
 * - Reads take a connection from a small pool and run their statements in one read
 *   transaction (one snapshot: items and count agree); a heavy query holds one connection,
 *   and a primary-key lookup takes another.
 * - Writes go through one writer connection, one transaction at a time: DuckDB's optimistic
 *   concurrency would otherwise abort one of two transactions touching the same row, and a
 *   serialized writer applies them all.
 * - Durability: a commit is in DuckDB's write-ahead log before the promise resolves; a
 *   SIGKILL afterwards loses nothing (the WAL is replayed on the next open).
 * - An instance DuckDB invalidated (a failed write to a full disk, say) is closed and opened
 *   again on the next call, rather than left answering errors.
 * - A database file on read-only storage is opened read-only: reads are served, writes are
 *   refused (503) by DuckDB itself.
 */
import fs from "node:fs";
import path from "node:path";
import { DOUBLE, type DuckDBConnection, DuckDBInstance, type DuckDBType, type DuckDBValue } from "@duckdb/node-api";
import { type CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { EngineError, type Progress, type RunResult, type SqlEngine, type SqlTx } from "../engine";
import { sizeBytes } from "../../config";
import { appendRows } from "./append";
import { duckDbDialect } from "./dialect";
import { createMemoryGate, MEMORY_GATE_TIMINGS } from "./memory-gate";
import { forgetPrepared, runPrepared, startPrepared } from "./prepared";

export interface DuckDbOptions {
  file: string;
  /** DuckDB memory_limit, e.g. "512MB". */
  memoryLimit: string;
  /** DuckDB worker threads. */
  threads: number;
  /** Read connections (concurrent reads). */
  readers?: number;
}

/** A Kysely that only compiles (PostgreSQL syntax, `$n` parameters, which DuckDB accepts). */
export function compileOnlyKysely(): Kysely<any> {
  return new Kysely<any>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

/** DuckDB values → plain JS (BIGINT counts as numbers). */
function plain(v: DuckDBValue): unknown {
  if (typeof v === "bigint") return Number(v);
  return v;
}

/**
 * JS numbers are bound as DOUBLE: left to itself the binding would take a whole number for a
 * BIGINT and fail on 1e308. Other values keep their inferred type.
 */
function typesOf(values: readonly unknown[]): DuckDBType[] {
  return values.map((v) => (typeof v === "number" ? DOUBLE : undefined)) as DuckDBType[];
}

async function runOn(conn: DuckDBConnection, query: CompiledQuery): Promise<RunResult> {
  return plainResult(await runPrepared(conn, query.sql, query.parameters as DuckDBValue[], typesOf(query.parameters)));
}

const plainResult = ({ rows, changes }: { rows: DuckDBValue[][]; changes: number }): RunResult => ({ rows: rows.map((r) => r.map(plain)), changes });

/**
 * A long statement (the import's scan, load and index) with its progress: DuckDB tracks it
 * while enable_progress_bar is on, which is only for such statements (never printed).
 */
async function runWatched(conn: DuckDBConnection, query: CompiledQuery, progress: Progress): Promise<RunResult> {
  await control(conn, "set enable_progress_bar = true");
  const poll = setInterval(() => {
    const { percentage } = conn.progress;
    if (percentage >= 0) progress(Math.min(percentage / 100, 1));
  }, PROGRESS_POLL_MS);
  try {
    return await runOn(conn, query);
  } finally {
    clearInterval(poll);
    await control(conn, "set enable_progress_bar = false").catch(() => undefined);
  }
}

const PROGRESS_POLL_MS = 500;
/** The instance is opened afresh for a read that ran out of memory alone at most this often. */
const RECYCLE_EVERY_MS = 10_000;

/** Transaction control, prepared once per connection like every other statement. */
const control = (conn: DuckDBConnection, sql: string) => runPrepared(conn, sql);

interface Opened {
  instance: DuckDBInstance;
  writer: DuckDBConnection;
  readers: DuckDBConnection[];
}

/**
 * What to do when DuckDB runs out of memory: a larger DUCKDB_MEMORY_LIMIT (twice the current
 * one, at least 2GB) where the service or the command runs, or PostgreSQL.
 */
export function memoryAdvice(limit: string): string {
  const next = Math.max(2e9, 2 * (sizeBytes(limit) ?? 0));
  const suggest = next % 1e9 === 0 ? `${next / 1e9}GB` : `${Math.ceil(next / 1e6)}MB`;
  return `Raise DUCKDB_MEMORY_LIMIT (now ${limit}; e.g. DUCKDB_MEMORY_LIMIT=${suggest}) for the service or the command that ran this, and try again, or move to PostgreSQL (DATABASE_URL).`;
}

export async function openDuckDbEngine(options: DuckDbOptions): Promise<SqlEngine> {
  fs.mkdirSync(path.dirname(options.file), { recursive: true });
  const readerCount = options.readers ?? 3;

  async function create(readOnly: boolean): Promise<DuckDBInstance> {
    return DuckDBInstance.create(options.file, {
      memory_limit: options.memoryLimit,
      threads: String(options.threads),
      // Statements never reach out: no extension downloads, no reads of other files by SQL.
      autoinstall_known_extensions: "false",
      autoload_known_extensions: "false",
      ...(readOnly ? { access_mode: "READ_ONLY" } : {}),
    });
  }

  async function open(): Promise<Opened> {
    let instance: DuckDBInstance;
    try {
      instance = await create(false);
    } catch (e) {
      // A database on read-only storage still serves reads; every write answers 503.
      if (duckDbDialect.classifyError(e) !== "readOnly" || !fs.existsSync(options.file)) throw e;
      instance = await create(true);
    }
    const writer = await instance.connect();
    const readers: DuckDBConnection[] = [];
    for (let i = 0; i < readerCount; i++) readers.push(await instance.connect());
    for (const c of [writer, ...readers]) await c.run("set enable_progress_bar = false; set enable_progress_bar_print = false");
    return { instance, writer, readers };
  }

  let db: Opened | undefined = await open();
  let reopening: Promise<Opened> | undefined;
  const idle: DuckDBConnection[] = [...db.readers];
  const waiting: ((c: DuckDBConnection) => void)[] = [];
  let writeChain: Promise<unknown> = Promise.resolve();
  let closed = false;
  let pause: Promise<void> | undefined;

  async function current(): Promise<Opened> {
    // While the instance is opened afresh (recycle), everything new waits for it.
    while (pause) await pause;
    if (closed) throw new EngineError("unavailable");
    if (db) return db;
    reopening ??= open().then((o) => {
      db = o;
      reopening = undefined;
      idle.length = 0;
      idle.push(...o.readers);
      return o;
    });
    return reopening;
  }

  /** After a fatal error DuckDB refuses every statement until reopened. */
  function invalidateOn(error: unknown): void {
    if (duckDbDialect.classifyError(error) !== "unavailable" || !db) return;
    const old = db;
    db = undefined;
    shut(old);
  }

  /** Closes an instance this engine no longer uses: its statements, connections, then itself. */
  function shut(old: Opened): void {
    idle.length = 0;
    for (const c of [old.writer, ...old.readers]) {
      forgetPrepared(c);
      try {
        c.closeSync();
      } catch {
        // Already unusable.
      }
    }
    try {
      old.instance.closeSync();
    } catch {
      // Already unusable; the next call opens a fresh instance.
    }
  }

  async function acquire(): Promise<DuckDBConnection> {
    const { readers } = await current();
    const c = idle.pop();
    if (c && readers.includes(c)) return c;
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(c: DuckDBConnection): void {
    if (!db || !db.readers.includes(c)) return;
    const next = waiting.shift();
    if (next) next(c);
    else idle.push(c);
  }

  // Reads that run out of memory: tried again beside the others, after them, or on a fresh instance.
  const gate = createMemoryGate({ isOutOfMemory: (e) => duckDbDialect.classifyError(e) === "outOfMemory", recycle });

  /**
   * Opens the instance afresh once no other read or write runs: DuckDB keeps what it has loaded of
   * a primary-key index (lookups at random over 10,000,000 keys: ~350 MB of a 512MB limit) and
   * gives none back, so a read needing more than is left fails however often it is tried, until
   * the service restarts. At most once in 10 s; false when not done (others still running).
   */
  let recycledAt = -Infinity;
  async function recycle(): Promise<boolean> {
    if (pause || closed || !db || Date.now() - recycledAt < RECYCLE_EVERY_MS) return false;
    recycledAt = Date.now();
    let resume!: () => void;
    pause = new Promise<void>((resolve) => (resume = resolve));
    try {
      // The write in progress, if any, ends (new ones wait in current()); then the other reads.
      await writeChain;
      await gate.othersDone(MEMORY_GATE_TIMINGS.othersWaitMs);
      if (gate.othersRunning() > 0 || !db) return false;
      const old = db;
      db = undefined;
      shut(old);
      gate.wakeWaiting();
      return true;
    } finally {
      pause = undefined;
      resume();
    }
  }

  /** Runs `fn` on reader `conn`: an error that invalidated the instance is noted, and the reader goes back to the pool. */
  async function onReader<T>(conn: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      invalidateOn(e);
      throw e;
    } finally {
      release(conn);
    }
  }

  async function readOnce(queries: CompiledQuery[], progress?: Progress): Promise<RunResult[]> {
    const conn = await acquire();
    return onReader(conn, async () => {
      if (queries.length === 1) return [await (progress ? runWatched(conn, queries[0], progress) : runOn(conn, queries[0]))];
      await control(conn, "begin transaction read only");
      try {
        const out: RunResult[] = [];
        for (const q of queries) out.push(await (progress ? runWatched(conn, q, progress) : runOn(conn, q)));
        return out;
      } finally {
        await control(conn, "commit").catch(() => undefined);
      }
    });
  }

  const engine: SqlEngine = {
    dialect: {
      ...duckDbDialect,
      memoryAdvice: memoryAdvice(options.memoryLimit),
    },
    builder: compileOnlyKysely(),

    // Out of memory: see memory-gate.ts.
    read: (queries, progress) => gate.read(() => readOnce(queries, progress)),

    write(fn) {
      const run = async () => {
        const { writer } = await current();
        await control(writer, "begin transaction");
        const tx: SqlTx = {
          run: async (q, progress, runOptions = {}) => {
            // Global settings [for the statement, after it]: reads running meanwhile share them,
            // for the seconds the statement takes.
            const settings: [string, string][] = [];
            if (runOptions.frugal) settings.push(["set threads = 1", `set threads = ${options.threads}`]);
            if (runOptions.unordered) settings.push(["set preserve_insertion_order = false", "set preserve_insertion_order = true"]);
            for (const [during] of settings) await control(writer, during);
            try {
              return await (progress ? runWatched(writer, q, progress) : runOn(writer, q));
            } finally {
              for (const [, after] of settings) await control(writer, after).catch(() => undefined);
            }
          },
          append: (table, columns, rows) => appendRows(writer, table, columns, rows),
          commit: async () => {
            await control(writer, "commit");
            await control(writer, "begin transaction");
          },
          // A reader's snapshot taken now is this transaction's start: every write of this file
          // is serialized here, and this one has not committed. Never waits for a busy reader.
          // The read is started (its snapshot taken) before it resolves, so this transaction may
          // commit while it runs.
          readerBeside: () => {
            const conn = idle.pop();
            if (!conn || !db?.readers.includes(conn)) return undefined;
            return (q, runOptions) => {
              let started!: () => void;
              const begun = new Promise<void>((resolve) => (started = resolve));
              const result = onReader(conn, async () => {
                if (runOptions.atMostOne) {
                  // DuckDB takes a statement's snapshot as it starts it, synchronously: 0.2 ms of
                  // this thread for one Record, and one trip to its threads fewer.
                  const run = await startPrepared(conn, q.sql, q.parameters as DuckDBValue[], typesOf(q.parameters));
                  started();
                  return plainResult(await run.result);
                }
                // Many Records (started synchronously, that held this thread 2-3 ms): in a
                // transaction of the reader's own, whose snapshot its first statement reading the
                // table takes (`pin`, not BEGIN), in any order (this reader's session setting, for
                // this read only). Setting, BEGIN and pin are one trip.
                await control(conn, `set session preserve_insertion_order = false; begin transaction read only; ${runOptions.pin.sql}`);
                try {
                  started();
                  return await runOn(conn, q);
                } finally {
                  await control(conn, "reset session preserve_insertion_order; commit").catch(async () => {
                    // A read that failed (out of memory, say) left its transaction aborted, and
                    // the commit is refused: rolled back, or the reader went back to the pool
                    // "aborted" and every read on it failed until the service was restarted.
                    await control(conn, "rollback").catch(() => undefined);
                    await control(conn, "reset session preserve_insertion_order").catch(() => undefined);
                  });
                }
              });
              // A read that fails before it began fails the start; after, only its result.
              return Promise.race([begun.then(() => ({ result })), result.then(() => ({ result }))]);
            };
          },
        };
        try {
          const result = await fn(tx);
          await control(writer, "commit");
          return result;
        } catch (e) {
          await control(writer, "rollback").catch(() => undefined);
          invalidateOn(e);
          throw e;
        }
      };
      const result = writeChain.then(run, run);
      writeChain = result.catch(() => undefined);
      return result;
    },

    async close() {
      await writeChain;
      closed = true;
      if (!db) return;
      try {
        // Folds the WAL into the file, so the next open replays nothing.
        await db.writer.run("checkpoint");
      } catch {
        // A read-only or full disk: the WAL stays and is replayed next time.
      }
      shut(db);
      db = undefined;
    },
  };
  return engine;
}
