/**
 * csv-parse's errors in the words of someone looking at a file: lines and cells. Its own
 * messages speak of "Records" (its word for a CSV row), which in this app are something else.
 */
import { CSV_LINE_MAX_BYTES } from "./limits";

export interface CsvParseError {
  code?: string;
  lines?: number;
  /** Rows read whole before the error. */
  records?: number;
  message?: string;
  record?: unknown[];
  columns?: unknown;
}

/**
 * Whether an error is csv-parse's own about the file (not ours, not I/O). Its codes start with
 * CSV_, except one: a quote in the middle of a value is "INVALID_OPENING_QUOTE" (csv-parse 5/6).
 */
export function isCsvParseError(e: unknown): e is CsvParseError {
  const code = (e as CsvParseError | undefined)?.code;
  return typeof code === "string" && (code.startsWith("CSV_") || code === "INVALID_OPENING_QUOTE");
}

/**
 * What is wrong, as "line N: …"; `headerCells` is the header's width when known. `startLine`,
 * when known (`rowStartLine`), is where the row that failed starts: a quote never closed is
 * named there (the parser's own line is the file's last).
 */
export function csvProblem(e: CsvParseError, headerCells?: number, startLine?: number): string {
  const line = problemLine(e, startLine);
  // A quoted value that runs on past its own line (a quote opened by mistake): where it opened.
  if (e.code === "CSV_INVALID_CLOSING_QUOTE" && line !== e.lines && e.lines !== undefined) {
    return `line ${line}: a quote (") opens a value that runs on to line ${e.lines}, where more text follows its closing quote; close it on line ${line}, or write a quote inside a value twice ("").`;
  }
  switch (e.code) {
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH":
    case "CSV_RECORD_INCONSISTENT_COLUMNS": {
      const got = Array.isArray(e.record) ? e.record.length : undefined;
      const want = headerCells ?? /expect (\d+)/.exec(e.message ?? "")?.[1];
      return widthProblem(line, got, want === undefined ? undefined : Number(want));
    }
    case "CSV_MAX_RECORD_SIZE":
      return `line ${line} is longer than ${CSV_LINE_MAX_BYTES / 1024 / 1024} MB, the most one line of an import may hold: shorten its longest cell.`;
    case "CSV_QUOTE_NOT_CLOSED":
      return `line ${line}: a quote (") opens a value that is never closed.`;
    case "CSV_INVALID_CLOSING_QUOTE":
      return `line ${line}: a quoted value is followed by more text; write a quote inside a value twice ("").`;
    case "CSV_INVALID_OPENING_QUOTE":
    case "INVALID_OPENING_QUOTE":
      return `line ${line}: a quote (") in the middle of a value; put the whole value in quotes and write the quote twice ("").`;
    default:
      return `line ${line}: ${(e.message ?? "the CSV cannot be read").replace(/\brecords?\b/gi, "line").replace(/^Invalid [^:]*: /, "")}`;
  }
}

/** A row with more or fewer cells than the header: "line 7: 5 cells where the header has 4 (…)". */
export function widthProblem(line: number, got: number | undefined, want: number | undefined): string {
  const cells = got === undefined ? "a different number of cells" : `${got} cell${got === 1 ? "" : "s"}`;
  return `line ${line}: ${cells} where the header has ${want ?? "another number"} (a missing or extra comma, or a value holding a comma that needs quotes).`;
}

/**
 * The line a problem is named at: the parser's own, except for a quoted value that runs on
 * past the line it opens on (never closed, or closed lines later with more text after it),
 * named where it opens, `startLine` (the row's first line), when known.
 */
export function problemLine(e: CsvParseError, startLine?: number): number {
  const runsOn = e.code === "CSV_QUOTE_NOT_CLOSED" || (e.code === "CSV_INVALID_CLOSING_QUOTE" && startLine !== undefined && e.lines !== undefined && startLine < e.lines);
  return (runsOn ? startLine : undefined) ?? e.lines ?? 1;
}

/** csv-parse's synchronous parse (its Node or its browser build: the caller's side chooses). */
export type SyncCsvParse = (text: string, options: { to: number; info: true; bom: true; relax_column_count: true; skip_empty_lines: true }) => unknown;

/** The line the row that failed starts on: the one after the last whole row the parser read. */
export function rowStartLine(e: CsvParseError, text: string, parse: SyncCsvParse): number | undefined {
  if (typeof e.records !== "number") return undefined;
  if (e.records === 0) return 1;
  // Read again up to that row (no error then), and ask where it ended.
  const rows = parse(text, { to: e.records, info: true, bom: true, relax_column_count: true, skip_empty_lines: true }) as { info: { lines: number } }[];
  const last = rows[rows.length - 1];
  if (!last) return undefined;
  // Past any empty lines after it (they hold no row).
  const lines = text.split("\n");
  let line = last.info.lines + 1;
  while (line <= lines.length && lines[line - 1].trim() === "") line++;
  return line;
}
