/**
 * DuckDB's fast path for the import: its CSV reader (native, multi-threaded) checks the file in
 * one aggregate pass (`scanSql`) and loads it (`loadSql`, or `insertSql` into the staging
 * table), about ten times faster than our own streaming pass and appending row by row.
 *
 * Columns are read as text and converted by the SQL below, the same way `cellValue` converts
 * them (empty cell = null; numbers may carry spaces; booleans any case; date-times in UTC to
 * the second written to milliseconds, as JavaScript's normalization writes them; any other
 * date-time sends the file to our own pass).
 *
 * The scan's tests are written so that "sure" implies our own rule accepts the cell and
 * "surely not" implies it refuses it; a cell that is neither (a number with more than 15
 * characters, unusual whitespace, year 0000) sends the import back to our own pass, which
 * decides exactly. `scan.test.ts` holds the two sides to each other.
 */
import type { FieldType } from "../../../../shared/records";
import type { CellTest, CsvLoad } from "../engine";
import { CSV_LINE_MAX_BYTES } from "../../../../shared/limits";

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

function converted(column: string, type: FieldType): string {
  const cell = `nullif(${ident(column)}, '')`;
  if (type === "number") return `cast(trim(${cell}) as double)`;
  if (type === "boolean") return `(lower(${cell}) = 'true')`;
  // Only cells the scan is sure of reach here (DATETIME_SHAPE): written as normalizeDatetime
  // writes them, the fraction to milliseconds (2024-05-01T10:00:00.5Z → …00.500Z).
  if (type === "datetime") return `substr(${cell}, 1, 19) || '.' || rpad(regexp_extract(${cell}, '${FRACTION}', 1), 3, '0') || 'Z'`;
  return cell;
}

/** Every column as VARCHAR, no sniffing, the header skipped, a row of the wrong width refused. */
function source(file: string, names: string[]): string {
  const columns = `{${names.map((n) => `${quote(n)}: 'VARCHAR'`).join(", ")}}`;
  return (
    `read_csv(${quote(file)}, columns = ${columns}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', ` +
    // The longest line as our own pass allows it; the buffer kept at DuckDB's default (16 × its
    // default 2 MB line), which would otherwise grow with the line to 256 MB per thread.
    `null_padding = false, strict_mode = true, max_line_size = ${CSV_LINE_MAX_BYTES}, buffer_size = ${32 * 1024 * 1024})`
  );
}

/**
 * The whitespace JavaScript's `\s` and `trim` know within ASCII (RE2's `\s` lacks \v). Passed
 * to RE2 as written: a DuckDB string literal keeps its backslashes.
 */
const WS = String.raw`[\t\n\x0B\f\r ]`;
/** A number written out, with no zero before another digit (`0010` is a code: cells.ts LEADING_ZERO). */
const NUMBER_SHAPE = String.raw`${WS}*[-+]?((0|[1-9][0-9]*)(\.[0-9]*)?|\.[0-9]+)${WS}*`;
const NEGATIVE_ZERO = String.raw`${WS}*-[0.]*${WS}*`;
/** A zero before another digit (`0010`): a code, kept text (cells.ts LEADING_ZERO); matched at the start only. */
const LEADING_ZERO = String.raw`^${WS}*[-+]?0[0-9]`;
/** A character no number's text holds: ASCII other than digits, . + - and whitespace. */
const NOT_IN_A_NUMBER = String.raw`[^0-9.+\-\t\n\x0B\f\r \x{80}-\x{10FFFF}]`;
const DATE_SHAPE = "[0-9]{4}-[0-9]{2}-[0-9]{2}";
/** A date-time's fraction of a second, as the conversion reads it. */
const FRACTION = String.raw`\.([0-9]{1,3})Z$`;
/** The date-times the scan is sure of: UTC to the second, up to milliseconds (what logs write). */
const DATETIME_SHAPE = String.raw`${DATE_SHAPE}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,3})?Z`;

/** [sure, surely not] for one non-null cell `c` (SQL boolean expressions). */
export function cellTest(c: string, test: CellTest): [string, string] {
  switch (test) {
    case "number":
      // Up to 15 characters: no double drops a digit and the value is within ±(2^53 − 1).
      return [
        `regexp_full_match(${c}, '${NUMBER_SHAPE}') and length(regexp_replace(${c}, '${WS}', '', 'g')) <= 15 and not regexp_full_match(${c}, '${NEGATIVE_ZERO}')`,
        `regexp_matches(${c}, '${NOT_IN_A_NUMBER}') or not regexp_matches(${c}, '[0-9]') or regexp_matches(${c}, '${LEADING_ZERO}')`,
      ];
    case "boolean": {
      const exact = `regexp_full_match(${c}, '[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]')`;
      return [exact, `not ${exact}`];
    }
    case "date":
      // DuckDB's calendar and ours agree from year 1 on (proleptic Gregorian); year 0 is left to ours.
      return [
        `regexp_full_match(${c}, '${DATE_SHAPE}') and ${c} >= '0001' and try_cast(${c} as date) is not null`,
        `not regexp_full_match(${c}, '${DATE_SHAPE}') or (${c} >= '0001' and try_cast(${c} as date) is null)`,
      ];
    case "datetime":
      // Sure of UTC to the second (up to milliseconds), on a real day from year 1 and a real
      // time: those convert in SQL as our own pass writes them. Any other zone, a lower-case
      // t or z, no seconds or more digits are left to our own pass. Surely not without its shape.
      return [
        `regexp_full_match(${c}, '${DATETIME_SHAPE}') and ${c} >= '0001' and try_cast(substr(${c}, 1, 10) as date) is not null and substr(${c}, 12, 2) <= '23' and substr(${c}, 15, 2) <= '59' and substr(${c}, 18, 2) <= '59'`,
        `not regexp_full_match(${c}, '${DATE_SHAPE}[Tt].*')`,
      ];
  }
}

/**
 * One row: the number of rows, then for each column its non-empty cells, its cells holding a
 * NUL (U+0000, which no text may hold), and for each of its tests, the cells sure to pass and
 * the cells sure to fail.
 */
export function scanSql(file: string, names: string[], tests: CellTest[][]): string {
  const out = ["count(*)"];
  names.forEach((name, i) => {
    const c = ident(name);
    out.push(`count(${c})`, `count(*) filter (where contains(${c}, chr(0)))`);
    for (const test of tests[i]) {
      const [sure, surelyNot] = cellTest(c, test);
      out.push(`count(*) filter (where ${sure})`, `count(*) filter (where ${surelyNot})`);
    }
  });
  return `select ${out.join(", ")} from ${source(file, names)}`;
}

/** INSERT … SELECT from the file straight into `table` (the file's columns, converted). */
export function loadSql(table: string, file: string, names: string[], types: FieldType[]): string {
  return `insert into ${ident(table)} (${names.map(ident).join(", ")}) select ${names.map((n, i) => converted(n, types[i])).join(", ")} from ${source(file, names)}`;
}

/**
 * INSERT … SELECT into `table` of the last line of each key in `repeats`: the rows numbered in
 * file order as the staging path numbers them, only the repeated keys' kept, the last of each.
 */
export function lastLinesSql(table: string, file: string, names: string[], types: FieldType[], primaryKey: string, repeats: string): string {
  const pk = ident(primaryKey);
  const numbered = `select row_number() over () as bb_line, ${names.map((n, i) => `${converted(n, types[i])} as ${ident(n)}`).join(", ")} from ${source(file, names)}`;
  return (
    `insert into ${ident(table)} (${names.map(ident).join(", ")}) select ${names.map(ident).join(", ")} from (${numbered}) ` +
    `where ${pk} in (select k from ${ident(repeats)}) qualify row_number() over (partition by ${pk} order by bb_line desc) = 1`
  );
}

/**
 * INSERT … SELECT from read_csv into `staging` (columns bb_line, then `names`); bb_line is the
 * row's position in the file (what "the last line wins" needs), not its line number, which
 * only our own pass reports.
 */
export function readCsvInsert(staging: string, file: string, names: string[], types: FieldType[]): string {
  return (
    `insert into ${ident(staging)} (bb_line, ${names.map(ident).join(", ")}) ` +
    `select row_number() over (), ${names.map((n, i) => converted(n, types[i])).join(", ")} from ${source(file, names)}`
  );
}

/** DuckDB's native CSV load, offered to the import through the dialect. */
export const duckDbCsvLoad: CsvLoad = {
  // Date-times only when the scan was sure of every cell: those alone convert in SQL exactly
  // (one with another zone, checked by our own pass, goes through the appender).
  fits: (types, scanned) => scanned || !types.includes("datetime"),
  insertSql: readCsvInsert,
  loadSql,
  lastLinesSql,
  scanSql,
};
