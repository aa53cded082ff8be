/**
 * Prepared statements kept per connection, keyed by SQL text.
 *
 * Why: on the small demo tables DuckDB spends most of a request parsing, binding and planning,
 * not executing. `conn.runAndReadAll(sql, values)` does all of that on every call, and with
 * values it parses the text twice (once to split it into statements, once to prepare it); it
 * also makes one trip through the thread pool per step, each one then waiting its turn on a
 * busy event loop: under load a serialized writer pays that wait several times per write. A statement prepared once and bound
 * anew each time skips the parse and the plan. The records compiler and storage metadata
 * produce a small set of SQL texts (values are always `$n` parameters), so a bounded cache
 * holds the working set. Statements without parameters are not kept (see `keep`).
 *
 * A prepared statement belongs to one connection and is used by one caller at a time: the
 * engine hands a connection to one read or one write at once, so bind-then-run never
 * interleaves. DuckDB rebinds a prepared statement by itself when the catalog changed since
 * it was prepared (a table created, altered or dropped), so cached statements stay correct
 * across DDL; DDL itself is not cached (run once, it would only take room).
 */
import type { DuckDBConnection, DuckDBMaterializedResult, DuckDBPreparedStatement, DuckDBType, DuckDBValue } from "@duckdb/node-api";

/** Statements kept per connection; the least recently used one is dropped beyond this. */
export const PREPARED_PER_CONNECTION = 256;

/** Statements worth keeping: queries and data changes (with parameters, below), and transaction control. */
const QUERY = /^\s*(select|with|insert|update|delete)\b/i;
const CONTROL = /^\s*(begin|commit|rollback)\b/i;

/**
 * Only a statement with parameters is kept. DuckDB plans a statement without any once, when it is
 * prepared, and folds what the table's statistics say into that plan: `count(*)` of a whole
 * table became the row count of that moment, a filter its min/max ruled out became an empty
 * result, `max(n)` a constant, and every later run answered the same whatever was written since
 * (a table's total stayed 1,000,000 after inserts; its last page skipped Records). A statement
 * with parameters is planned again at each run. (Tested in prepared-statistics.test.ts.)
 */
const keep = (sql: string, parameters: number) => CONTROL.test(sql) || (parameters > 0 && QUERY.test(sql));

const caches = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

async function preparedFor(conn: DuckDBConnection, sql: string, parameters: number): Promise<DuckDBPreparedStatement | undefined> {
  if (!keep(sql, parameters)) return undefined;
  let cache = caches.get(conn);
  if (!cache) caches.set(conn, (cache = new Map()));
  const hit = cache.get(sql);
  if (hit) {
    // Map order is insertion order: re-inserting marks it most recently used.
    cache.delete(sql);
    cache.set(sql, hit);
    return hit;
  }
  const made = await conn.prepare(sql);
  cache.set(sql, made);
  if (cache.size > PREPARED_PER_CONNECTION) {
    const [oldest, statement] = cache.entries().next().value as [string, DuckDBPreparedStatement];
    cache.delete(oldest);
    statement.destroySync();
  }
  return made;
}

/** The connection's prepared statement for `sql` with these values bound, or undefined for one not kept. */
async function bound(conn: DuckDBConnection, sql: string, values: readonly DuckDBValue[], types: (DuckDBType | undefined)[]): Promise<DuckDBPreparedStatement | undefined> {
  const statement = await preparedFor(conn, sql, values.length);
  if (statement && values.length) statement.bind([...values], types as DuckDBType[]);
  return statement;
}

/** Rows (all chunks read) and rows changed of one statement, prepared once per connection. */
export async function runPrepared(
  conn: DuckDBConnection,
  sql: string,
  values: readonly DuckDBValue[] = [],
  types: (DuckDBType | undefined)[] = [],
): Promise<{ rows: DuckDBValue[][]; changes: number }> {
  const statement = await bound(conn, sql, values, types);
  if (!statement) {
    const reader = await conn.runAndReadAll(sql, values.length ? [...values] : undefined, types as DuckDBType[]);
    return { rows: reader.getRows(), changes: reader.rowsChanged };
  }
  // One trip to DuckDB: `run` materializes the result, whose chunks are then read without
  // waiting (a reader would fetch them one async call each, plus one to find the end).
  const result = await statement.run().catch((e: unknown) => failed(conn, sql, statement, e));
  return rowsOf(result);
}

function rowsOf(result: DuckDBMaterializedResult): { rows: DuckDBValue[][]; changes: number } {
  const rows: DuckDBValue[][] = [];
  for (let i = 0; i < result.chunkCount; i++) for (const row of result.getChunk(i).getRows()) rows.push(row);
  return { rows, changes: result.rowsChanged };
}

/**
 * A statement whose run failed is dropped (prepared again next time): DuckDB keeps the memory a
 * failed run had taken with the statement until it is destroyed. Measured: two reads that ran
 * out of memory at once left 32 MB of a 64 MB limit taken, and every read after them, alone,
 * ran out of memory too.
 */
function failed(conn: DuckDBConnection, sql: string, statement: DuckDBPreparedStatement, e: unknown): never {
  const cache = caches.get(conn);
  if (cache?.get(sql) === statement) cache.delete(sql);
  statement.destroySync();
  throw e;
}

/**
 * Starts one statement, prepared once per connection like `runPrepared`, and resolves once it
 * has begun: DuckDB takes its snapshot when the statement is started (synchronously, here), so
 * a commit on another connection after this resolves is not seen by it. Its rows come in
 * `result` (wrapped, so awaiting the start does not wait for them).
 */
export async function startPrepared(
  conn: DuckDBConnection,
  sql: string,
  values: readonly DuckDBValue[] = [],
  types: (DuckDBType | undefined)[] = [],
): Promise<{ result: Promise<{ rows: DuckDBValue[][]; changes: number }> }> {
  const statement = await bound(conn, sql, values, types);
  if (!statement) throw new Error(`startPrepared: not a statement kept prepared: ${sql.slice(0, 40)}`);
  const pending = statement.start();
  const result = pending.getResult().then(
    (r) => rowsOf(r as DuckDBMaterializedResult),
    (e: unknown) => failed(conn, sql, statement, e),
  );
  return { result };
}

/** How many statements a connection holds prepared (for tests and diagnostics). */
export function preparedCount(conn: DuckDBConnection): number {
  return caches.get(conn)?.size ?? 0;
}

/** Forgets a connection's statements (before it is closed, or after its database was invalidated). */
export function forgetPrepared(conn: DuckDBConnection): void {
  // Destroyed, not left to the garbage collector: a statement holds memory of its last run, and
  // its connection's database, until then.
  for (const statement of caches.get(conn)?.values() ?? []) {
    try {
      statement.destroySync();
    } catch {
      // Its database is already unusable.
    }
  }
  caches.delete(conn);
}
