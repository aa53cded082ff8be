/**
 * DuckDB's side of the seam: functions, types, collation and error mapping (pure, no I/O).
 *
 * - Text columns are VARCHAR with DuckDB's default binary collation: UTF-8 byte order, which is
 *   code-point order (decisions §4).
 * - Case folding is DuckDB's Unicode `lower()`, applied to both the column and the needle, so
 *   the two are always folded alike.
 * - DuckDB's default null order is NULLS LAST for both directions; the planner always writes
 *   NULLS FIRST / NULLS LAST explicitly, so nothing here depends on it.
 */
import { sql } from "kysely";
import type { FieldType } from "../../../../shared/records";
import type { Dialect, EngineErrorKind } from "../engine";
import { duckDbCsvLoad } from "./read-csv";

const message = (e: unknown) => String((e as Error)?.message ?? e);

export function classifyDuckDbError(error: unknown): EngineErrorKind | undefined {
  const m = message(error);
  if (/Constraint Error: (Duplicate key|PRIMARY KEY or UNIQUE|Data contains duplicates)/i.test(m)) return "unique";
  if (/NOT NULL constraint failed/i.test(m)) return "notNull";
  if (/No space left on device|disk quota exceeded|out of disk/i.test(m)) return "diskFull";
  if (/read-only file system|read-only mode|Permission denied|cannot be opened in read-only/i.test(m)) return "readOnly";
  if (/stack overflow|max_expression_depth|expression depth|too many parameters/i.test(m)) return "tooComplex";
  if (/database has been invalidated|FATAL Error/i.test(m)) return "unavailable";
  // "Out of Memory Error: failed to pin block …" / "could not allocate block …": its own advice
  // speaks of SET commands a user cannot run; ours names the setting (memoryAdvice).
  if (/^Out of Memory Error|failed to pin block|could not allocate block/i.test(m)) return "outOfMemory";
  return undefined;
}

export const duckDbDialect: Dialect = {
  name: "duckdb",
  // DuckDB's max_expression_depth defaults to 1000; keep a margin for the surrounding statement.
  maxHeight: 800,
  foldedMatch: (haystack, needle, how) =>
    how === "contains" ? sql<boolean>`contains(lower(${haystack}), lower(${needle}))` : sql<boolean>`starts_with(lower(${haystack}), lower(${needle}))`,
  // Each row's JSON joined as text: half the time of json_group_array (1.2 against 2.4 ms for
  // 10,000 rows), which builds one JSON document of them all first.
  jsonRow: (columns) => sql<string>`json_array(${sql.join(columns.map((c) => (c.json ? sql`${c.ref}::JSON` : c.ref)))})::VARCHAR`,
  jsonArrayOf: (rowText) => sql<string>`coalesce('[' || string_agg(${rowText}, ',') || ']', '[]')`,
  byteLength: (text) => sql<number>`strlen(${text})`,
  sampleFrom: (table, alias, percent) => sql`${sql.table(table)} as ${sql.id(alias)} tablesample ${sql.lit(percent)}% (system)`,
  bool: (v) => v,
  columnType(type: FieldType) {
    if (type === "number") return sql`double`;
    if (type === "boolean") return sql`boolean`;
    return sql`varchar`;
  },
  secondaryIndexes: false,
  classifyError: classifyDuckDbError,
  csvLoad: duckDbCsvLoad,
  primaryKeyAfterLoad: true,
  notEqualByRange: true,
  deepPagesByKeys: true,
};
