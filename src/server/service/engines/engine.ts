/**
 * The engine seam: everything above it (the records compiler and store, the table registry,
 * storage metadata, the seed, the import, the migration) builds SQL with one Kysely builder
 * (PostgreSQL syntax, `$n` parameters) and runs it through `SqlEngine`; everything that differs
 * between databases lives below it, in one dialect module per engine (engines/duckdb/…,
 * engines/postgres/…). Nothing above the seam asks which engine is in use.
 *
 * Every call is asynchronous and runs off the event loop (DuckDB's own threads, or the
 * PostgreSQL server), so no request waits behind another's query.
 */
import type { CompiledQuery, Kysely, RawBuilder } from "kysely";
import type { FieldType } from "../../../shared/records";

/** Engine failures that mean something to a client; anything else is a 500. */
export type EngineErrorKind =
  /** A primary-key or unique constraint was violated (409 for updates). */
  | "unique"
  /** A NOT NULL constraint was violated. */
  | "notNull"
  /** The statement is too deep or has too many parameters for the engine (400). */
  | "tooComplex"
  /** The disk is full (507 insufficient_storage). */
  | "diskFull"
  /** The database cannot be written (read-only file system, permissions: 503 unavailable). */
  | "readOnly"
  /** The engine is restarting or unreachable (503 unavailable). */
  | "unavailable"
  /** The engine ran out of the memory it may use (503 unavailable, with the dialect's advice). */
  | "outOfMemory";

/** What differs in SQL between engines. Pure: no I/O. */
export interface Dialect {
  /** For logs and the benchmark only; code above the seam must not branch on it. */
  readonly name: string;
  /** Largest filter-expression height the engine evaluates (the compiler refuses deeper ones with a 400). */
  readonly maxHeight: number;
  /**
   * Whether `haystack` contains `needle` (or starts with it), both folded by the same Unicode
   * lower-casing; null when the haystack is null. The needle is bound once, as text, taken
   * literally (no wildcards): contains / notContains / startsWith.
   */
  foldedMatch(haystack: RawBuilder<unknown>, needle: string, how: "contains" | "startsWith"): RawBuilder<boolean>;
  /**
   * Rows read as JSON text, built by the engine itself: `jsonRow` is one row's values as an
   * array (a `json` column's text embedded as the JSON it holds), `jsonArrayOf` the aggregate
   * joining such texts into one array (`[]` for none). The audit trail's 10,000 before-images:
   * 1.2 ms this way on DuckDB, 7 ms as rows read into JS. Apart so that each row's text is built
   * in the query that holds the LIMIT, below the aggregate: DuckDB then builds them on both
   * threads (10,000 rows: 1.47 against 1.99 ms built in the aggregate above a LIMIT).
   */
  jsonRow(columns: { ref: RawBuilder<unknown>; json: boolean }[]): RawBuilder<string>;
  jsonArrayOf(rowText: RawBuilder<unknown>): RawBuilder<string>;
  /** The length of a text in bytes of UTF-8 (object keys are limited in bytes). */
  byteLength(text: RawBuilder<unknown>): RawBuilder<number>;
  /**
   * `table as alias`, read as a sample of about `percent`% of its rows (whole vectors: cheap),
   * where the engine can: a sorted first page then finds a bound on its first sort term from the
   * sample (records/bounded-top-n.ts). Undefined where the engine's top-N needs no help. The
   * percentage is a constant in the SQL (DuckDB takes no parameter there).
   */
  sampleFrom?(table: string, alias: string, percent: number): RawBuilder<unknown>;
  /** How a boolean is bound as a parameter. */
  bool(value: boolean): unknown;
  /** Column type for a Field type in CREATE TABLE, text-like ones ordered by code point. */
  columnType(type: FieldType): RawBuilder<unknown>;
  /** Whether secondary indexes (TableDef.indexes) help this engine; DuckDB's zone maps do without. */
  readonly secondaryIndexes: boolean;
  /** Classifies an engine error thrown by `run`, or undefined when it means nothing to a client. */
  classifyError(error: unknown): EngineErrorKind | undefined;
  /**
   * A Table the import creates gets its primary key as a unique index built after the load,
   * not a PRIMARY KEY filled row by row: DuckDB's key index must otherwise fit in memory_limit
   * while 10,000,000 rows are inserted, and does not at 512MB (measured: "failed to pin block"
   * at commit). Built in the load's own transaction it took 1.4 GB; built over the committed
   * load (import/csv-import.ts, loadThenAdopt) it stays under 800 MB. Uniqueness, the error on
   * a duplicate and ON CONFLICT behave the same either way.
   */
  readonly primaryKeyAfterLoad?: boolean;
  /** What a user changes when the engine runs out of memory (our words: a setting they can set). */
  readonly memoryAdvice?: string;
  /**
   * Whether a read inside a write transaction must lock the rows it reads (SELECT … FOR UPDATE)
   * so no other writer changes them before the same transaction updates them: true where
   * several processes write one database (PostgreSQL); DuckDB's one writer needs no lock.
   */
  readonly lockRowsForUpdate?: boolean;
  /**
   * `notEqual` on a column that is never null is written `(col < v or col > v)`: DuckDB then
   * skips every row group whose min/max the value lies outside (its zone maps prune ranges,
   * never `<>`). 10,000,000 keys: `contains` + `key notEqual x` 105 → 55 ms, measured.
   */
  readonly notEqualByRange?: boolean;
  /**
   * A page deep in a sort is better found by numbering the matches' keys in order (a window: a
   * sort that spills to disk) than by the engine's top-N, which holds every row before the page
   * in memory it cannot spill (DuckDB: skip 5,000,000 of 10,000,000 ran the service out of
   * memory at 512MB beside other queries).
   */
  readonly deepPagesByKeys?: boolean;
  /** The engine's own CSV reader, when it has one the import may use after checking every row. */
  readonly csvLoad?: CsvLoad;
  /**
   * Statements that make `foldedMatch` on a column fast (PostgreSQL: pg_trgm's extension and
   * a trigram index on the folded column), or undefined where a scan is the way (DuckDB).
   */
  searchIndex?(table: string, column: string, name: string): RawBuilder<unknown>[];
}

/** What the engine's scan can test a CSV cell for (see `CsvLoad.scanSql`). */
export type CellTest = "number" | "boolean" | "date" | "datetime";

/** The engine's own CSV reader, used by the import to check and load a file natively. */
export interface CsvLoad {
  /**
   * Whether columns of these types load natively with the same conversions as our own checks;
   * `scanned`: the engine's scan was sure of every cell (some conversions hold only for those).
   */
  fits(types: FieldType[], scanned: boolean): boolean;
  /** INSERT … SELECT from the file into `staging`; bb_line is the row's position in the file. */
  insertSql(staging: string, file: string, names: string[], types: FieldType[]): string;
  /** INSERT … SELECT from the file straight into `table`. */
  loadSql(table: string, file: string, names: string[], types: FieldType[]): string;
  /**
   * INSERT … SELECT into `table` of the last line in the file of each key `repeats` holds (its
   * column `k`), keyed by `primaryKey`: a load whose keys repeat keeps the last line of each.
   */
  lastLinesSql(table: string, file: string, names: string[], types: FieldType[], primaryKey: string, repeats: string): string;
  /**
   * One aggregate over the file (a row of a different width fails it): the number of rows,
   * then per column its non-empty cells and, per test asked, [cells surely passing, cells
   * surely failing] by our own rules (`import/cells.ts`). A cell may be neither.
   */
  scanSql(file: string, names: string[], tests: CellTest[][]): string;
}

/** Told, while a long statement runs, how far it has got (0–1), where the engine can say. */
export type Progress = (fraction: number) => void;

export interface RunResult {
  /** Result rows, each an array in select order; numbers as JS numbers, booleans as booleans. */
  rows: unknown[][];
  /** Rows inserted / updated / deleted by the statement. */
  changes: number;
}

/** One transaction (or one snapshot, for reads). */
/** How a long statement should run, where the engine has a choice. */
export interface RunOptions {
  /**
   * On as few threads as the engine can: slower, but within its memory limit. DuckDB builds a
   * key index's parts per thread outside memory_limit (10,000,000 keys: +210 MB with 2 threads,
   * nothing with 1, measured).
   */
  frugal?: boolean;
  /**
   * The rows an INSERT … SELECT writes may be stored in any order (every read orders them), or
   * a read's rows may come in any order: DuckDB then need not buffer the reader's chunks to keep
   * the file's order (a 10,000,000-row load peaked 200 MB lower, measured), nor run a LIMIT on
   * one thread (10,000 before-images: 3.6 → 2.2 ms).
   */
  unordered?: boolean;
}

export interface SqlTx {
  run(query: CompiledQuery, progress?: Progress, options?: RunOptions): Promise<RunResult>;
  /**
   * Bulk-appends rows (values already encoded for the store, in `columns` order) to a table:
   * DuckDB's appender, PostgreSQL's COPY. Returns how many rows were appended.
   */
  append(table: string, columns: string[], rows: AsyncIterable<unknown[][]>): Promise<number>;
  /**
   * Reserves a connection for one read of what this transaction began with, beside the
   * transaction's own statements (which it does not see); undefined when none is free at once
   * (read inside the transaction instead). The read, once asked, resolves as soon as it has
   * taken its snapshot, to its `result`, which may come after the transaction has committed
   * (it still sees what the transaction began with); a read that fails to start rejects. Only
   * an engine whose every write goes through this process's serialized `write` has it (DuckDB
   * holds its file alone): no commit can come between the transaction's start and the read.
   * `atMostOne`: the read is of one Record at most (else of many, in any order). `pin`: a
   * statement without parameters that reads a table the read reads, cheaply (it can take the
   * snapshot).
   */
  /**
   * Commits what this transaction wrote and goes on in a new one, the writer still held: no
   * other write of this process comes in between. What was committed stays if a later part
   * fails (the caller undoes it). Only DuckDB's engine has it (a long import's steps, each
   * committed so that its memory is given back before the next: see import/rebuild.ts).
   */
  commit?(): Promise<void>;
  readerBeside?(): ((query: CompiledQuery, options: { atMostOne: boolean; pin: CompiledQuery }) => Promise<{ result: Promise<RunResult> }>) | undefined;
}

export interface SqlEngine {
  readonly dialect: Dialect;
  /** Builds and compiles SQL only (PostgreSQL query compiler; never executes). */
  readonly builder: Kysely<any>;
  /** Runs read-only statements on one consistent snapshot, concurrently with other reads. */
  read(queries: CompiledQuery[], progress?: Progress): Promise<RunResult[]>;
  /**
   * Runs `fn` in one write transaction, serialized with every other write of this process:
   * committed when it resolves, rolled back (nothing written) when it throws.
   */
  write<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  /**
   * Engines that other processes may write too (several service instances on one PostgreSQL)
   * call `listener` after such a write: whatever is cached about the data (counts) is stale.
   */
  onForeignWrite?(listener: () => void): void;
  close(): Promise<void>;
}

/** An engine error mapped to a client-facing kind; messages never carry SQL or paths. */
export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    override readonly cause?: unknown,
  ) {
    super(`engine error: ${kind}`);
  }
}
