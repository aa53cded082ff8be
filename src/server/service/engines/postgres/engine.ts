/**
 * The PostgreSQL engine (DATABASE_URL=postgres://…): Records, the table registry and storage
 * metadata in one PostgreSQL database, through a node-postgres pool.
 *
 * - Reads run on any pooled connection, concurrently; several statements (items and count) run
 *   in one REPEATABLE READ READ ONLY transaction, so they see one snapshot.
 * - Writes: one transaction each, and serialized across *every* service process on the database
 *   by a transaction-scoped advisory lock. That is the embedded engine's single writer, made
 *   cluster-wide: code above the seam may check-then-write (create vs update access, the next
 *   storage version, the next table id) and two instances never interleave. Reads never wait
 *   for it. Versions stay unique by the tables' own constraints as well. Each write also
 *   notifies the other instances (foreign-writes.ts), which drop their cached counts.
 * - Every error that reaches the caller is an EngineError when it means something to a client
 *   (the dialect's classification), so no SQL text ever reaches a response.
 */
import pg from "pg";
import { type CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { EngineError, type RunResult, type SqlEngine, type SqlTx } from "../engine";
import { appendRows } from "./append";
import { type PostgresOptions, poolConfig } from "./connection";
import { classifyPostgresError, postgresDialect } from "./dialect";
import { foreignWrites } from "./foreign-writes";

/** Key of the advisory lock that serializes writes ("bb-write" as a 64-bit number). */
const WRITE_LOCK = "7089336410592612711";

/** Result values as the seam promises them: numbers as numbers, dates and times as text. */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    switch (oid) {
      case 20: // int8: counts
      case 1700: // numeric
        return (v: string) => Number(v);
      case 1082: // date
      case 1114: // timestamp
      case 1184: // timestamptz
        return (v: string) => v;
      default:
        return pg.types.getTypeParser(oid, format as "text");
    }
  },
} as pg.CustomTypesConfig;

/** A database error as the seam's EngineError when it has a meaning for clients. */
function translate(error: unknown): unknown {
  if (error instanceof EngineError) return error;
  const kind = classifyPostgresError(error);
  return kind ? new EngineError(kind, error) : error;
}

async function runOn(client: pg.PoolClient | pg.Pool, query: CompiledQuery): Promise<RunResult> {
  const res = await client.query({ text: query.sql, values: query.parameters as unknown[], rowMode: "array", types });
  return { rows: res.rows as unknown[][], changes: res.rowCount ?? 0 };
}

/** A Kysely that only compiles SQL (PostgreSQL syntax); the pool runs it. */
function compileOnlyKysely(): Kysely<any> {
  return new Kysely<any>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

/** Finds a collation that lower-cases by Unicode rules (the "C" text columns do not). */
async function foldCollation(pool: pg.Pool): Promise<string | undefined> {
  const res = await pool.query<{ collname: string }>(
    "select collname from pg_collation where collname in ('und-x-icu', 'C.utf8', 'C.UTF-8', 'en_US.utf8') order by array_position(array['und-x-icu', 'C.utf8', 'C.UTF-8', 'en_US.utf8'], collname::text) limit 1",
  );
  return res.rows[0]?.collname;
}

export async function openPostgresEngine(options: PostgresOptions): Promise<SqlEngine> {
  const pool = new pg.Pool(poolConfig(options));
  // An idle connection the server dropped (restart, failover) must not crash the process; the
  // next query simply gets a fresh connection (or a 503 while the server is away).
  pool.on("error", () => undefined);
  let collation: string | undefined;
  try {
    collation = await foldCollation(pool);
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw translate(e);
  }
  const dialect = postgresDialect(collation);
  const foreign = foreignWrites(options);
  let closed = false;

  async function connect(): Promise<pg.PoolClient> {
    if (closed) throw new EngineError("unavailable");
    try {
      return await pool.connect();
    } catch (e) {
      throw translate(e);
    }
  }

  /**
   * One transaction on a pooled client: `begin` opens it; on any failure it is rolled back and the
   * error translated. A connection that breaks between its queries emits 'error' on the client
   * (the pool's handler covers idle clients only): caught, the next query fails, and the client
   * is destroyed.
   */
  async function transaction<T>(begin: string, body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await connect();
    let failure: unknown;
    const onError = (e: Error) => {
      failure ??= e;
    };
    client.on("error", onError);
    try {
      await client.query(begin);
      const result = await body(client);
      await client.query("commit");
      return result;
    } catch (e) {
      failure = e;
      await client.query("rollback").catch(() => undefined);
      throw translate(e);
    } finally {
      client.off("error", onError);
      release(client, failure);
    }
  }

  /** Releases a client; one whose connection broke is destroyed, not returned to the pool. */
  function release(client: pg.PoolClient, error?: unknown): void {
    const broken = error !== undefined && classifyPostgresError(error) === "unavailable";
    client.release(broken ? (error as Error) : undefined);
  }

  const engine: SqlEngine = {
    dialect,
    builder: compileOnlyKysely(),

    async read(queries) {
      foreign.beforeRead();
      if (queries.length === 1) {
        if (closed) throw new EngineError("unavailable");
        try {
          return [await runOn(pool, queries[0])];
        } catch (e) {
          throw translate(e);
        }
      }
      return transaction("begin isolation level repeatable read read only", async (client) => {
        const out: RunResult[] = [];
        for (const q of queries) out.push(await runOn(client, q));
        return out;
      });
    },

    async write(fn) {
      // One round trip: the transaction, the cluster-wide writer lock and the notice to the
      // other instances (delivered only if this commits).
      return transaction(`begin; select pg_advisory_xact_lock(${WRITE_LOCK}); ${foreign.notifySql}`, (client) => {
        const tx: SqlTx = {
          run: (q) => runOn(client, q),
          append: (table, columns, rows) => appendRows(client, table, columns, rows),
        };
        return fn(tx);
      });
    },

    onForeignWrite: (listener) => foreign.subscribe(listener),

    async close() {
      if (closed) return;
      closed = true;
      await foreign.close();
      await pool.end();
    },
  };
  return engine;
}
