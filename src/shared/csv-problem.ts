/**
 * csv-parse's errors in the words of someone looking at a file: lines and cells. Its own
 * messages speak of "Records" (its word for a CSV row), which in this app are something else.
 */
export interface CsvParseError {
  code?: string;
  lines?: number;
  message?: string;
  record?: unknown[];
  columns?: unknown;
}

/** What is wrong, as "line N: …"; `headerCells` is the header's width when known. */
export function csvProblem(e: CsvParseError, headerCells?: number): string {
  const line = e.lines ?? 1;
  switch (e.code) {
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH":
    case "CSV_RECORD_INCONSISTENT_COLUMNS": {
      const got = Array.isArray(e.record) ? e.record.length : undefined;
      const want = headerCells ?? /expect (\d+)/.exec(e.message ?? "")?.[1];
      const cells = got === undefined ? "a different number of cells" : `${got} cell${got === 1 ? "" : "s"}`;
      return `line ${line}: ${cells} where the header has ${want ?? "another number"} (a missing or extra comma, or a value holding a comma that needs quotes).`;
    }
    case "CSV_QUOTE_NOT_CLOSED":
      return `line ${line}: a quote (") opens a value that is never closed.`;
    case "CSV_INVALID_CLOSING_QUOTE":
      return `line ${line}: a quoted value is followed by more text; write a quote inside a value twice ("").`;
    case "CSV_INVALID_OPENING_QUOTE":
      return `line ${line}: a quote (") in the middle of a value; put the whole value in quotes and write the quote twice ("").`;
    default:
      return `line ${line}: ${(e.message ?? "the CSV cannot be read").replace(/\brecords?\b/gi, "line").replace(/^Invalid [^:]*: /, "")}`;
  }
}
