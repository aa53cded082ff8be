/**
 * PostgreSQL's side of the seam: functions, types, collation and error mapping (pure, no I/O).
 *
 * - Text-like columns are `text COLLATE "C"`: byte order of UTF-8, which is code-point order
 *   (decisions §4), whatever locale the database was created with.
 * - Case folding: `lower()` under a "C" column folds only ASCII, so both sides are folded under
 *   a Unicode collation (ICU's root locale when the server has ICU, as Debian's and the managed
 *   services' builds do; else the database's default), the same Unicode lower-casing as the
 *   embedded engine.
 * - Errors are classified by SQLSTATE (and node's socket codes for an unreachable server), never
 *   by message text, so a translated server (lc_messages) maps the same.
 */
import { sql } from "kysely";
import type { FieldType } from "../../../../shared/records";
import { type Dialect, EngineError, type EngineErrorKind } from "../engine";

/** Socket-level failures: the server is down, restarting or unreachable. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOENT", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "EAI_AGAIN", "ENOTFOUND"]);

export function classifyPostgresError(error: unknown): EngineErrorKind | undefined {
  if (error instanceof EngineError) return error.kind;
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  if (code === "23505") return "unique";
  if (code === "23502") return "notNull";
  // statement_too_complex (stack depth), program_limit_exceeded, too_many_arguments.
  if (code === "54001" || code === "54000" || code === "54023") return "tooComplex";
  if (code === "53100") return "diskFull";
  // read_only_sql_transaction (a hot standby or default_transaction_read_only), insufficient privilege to write.
  if (code === "25006") return "readOnly";
  // connection exceptions (08…), admin/crash shutdown, cannot connect now, too many connections,
  // out of memory / resources, serialization failures that outlived their retries.
  if (code.startsWith("08") || code.startsWith("57P") || code.startsWith("53") || code === "40001" || code === "40P01") return "unavailable";
  if (UNREACHABLE.has(code)) return "unavailable";
  const message = typeof e?.message === "string" ? e.message : "";
  // node-postgres's own words when a connection drops or cannot be made in time.
  if (/^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(message)) return "unavailable";
  return undefined;
}

/** The dialect, given the collation that folds case by Unicode rules on this server. */
export function postgresDialect(foldCollation: string | undefined): Dialect {
  const fold = (expr: unknown) => (foldCollation ? sql`lower(${expr} collate ${sql.id(foldCollation)})` : sql`lower(${expr})`);
  return {
    name: "postgres",
    // PostgreSQL parses and plans deep and/or trees recursively within max_stack_depth (2 MB by
    // default); 800 levels stay well inside it, the same bound as the embedded engine.
    maxHeight: 800,
    // LIKE, not strpos: a trigram index on the folded column (records/search-index.ts) serves it.
    // The needle's own \\, % and _ are escaped in SQL, so it is matched literally.
    foldedMatch: (haystack, needle, how) => {
      const literal = sql`replace(replace(replace(${fold(sql`${needle}::text`)}, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
      const pattern = how === "contains" ? sql`'%' || ${literal} || '%'` : sql`${literal} || '%'`;
      return sql<boolean>`(${fold(haystack)} like ${pattern} escape '\\')`;
    },
    jsonRow: (columns) => sql<string>`json_build_array(${sql.join(columns.map((c) => (c.json ? sql`${c.ref}::json` : c.ref)))})::text`,
    jsonArrayOf: (rowText) => sql<string>`coalesce('[' || string_agg(${rowText}, ',') || ']', '[]')`,
    byteLength: (text) => sql<number>`octet_length(${text})`,
    bool: (v) => v,
    columnType(type: FieldType) {
      if (type === "number") return sql`double precision`;
      if (type === "boolean") return sql`boolean`;
      return sql`text collate "C"`;
    },
    // The index's expression is the one `foldedMatch` folds the column with, so the planner
    // matches it to the query's.
    searchIndex: (table, column, name) => [
      sql`create extension if not exists pg_trgm`,
      sql`create index if not exists ${sql.id(name)} on ${sql.table(table)} using gin (${fold(sql.ref(column))} gin_trgm_ops)`,
    ],
    secondaryIndexes: true,
    lockRowsForUpdate: true,
    classifyError: classifyPostgresError,
  };
}
