/**
 * DuckDB's fast path for the import's load: once our own streaming pass has checked every row
 * and settled every column's type, DuckDB's CSV reader (native, multi-threaded) loads the file
 * into the staging table in one statement: about ten times faster than appending row by row
 * from JavaScript. Columns are read as text and converted by the SQL below, the same way
 * `cellValue` converts them (empty cell = null; numbers may carry spaces; booleans any case).
 * Datetime cells need JavaScript's normalization to one UTC form, so a file with a datetime
 * column takes the appender path instead (see `fits` below).
 */
import type { FieldType } from "../../../../shared/records";
import type { CsvLoad } from "../engine";

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;


function converted(column: string, type: FieldType): string {
  const cell = `nullif(${ident(column)}, '')`;
  if (type === "number") return `cast(trim(${cell}) as double)`;
  if (type === "boolean") return `(lower(${cell}) = 'true')`;
  return cell;
}

/**
 * INSERT … SELECT from read_csv into `staging` (columns bb_line, then `names`): every column as
 * VARCHAR, no sniffing, the header skipped; bb_line is the row's position in the file (what
 * "the last line wins" needs), not its line number, which only our own pass reports.
 */
export function readCsvInsert(staging: string, file: string, names: string[], types: FieldType[]): string {
  const columns = `{${names.map((n) => `${quote(n)}: 'VARCHAR'`).join(", ")}}`;
  const source =
    `read_csv(${quote(file)}, columns = ${columns}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', ` +
    `null_padding = false, strict_mode = true)`;
  return (
    `insert into ${ident(staging)} (bb_line, ${names.map(ident).join(", ")}) ` +
    `select row_number() over (), ${names.map((n, i) => converted(n, types[i])).join(", ")} from ${source}`
  );
}

/** DuckDB's native CSV load, offered to the import through the dialect. */
export const duckDbCsvLoad: CsvLoad = {
  fits: (types) => !types.includes("datetime"),
  insertSql: readCsvInsert,
};
