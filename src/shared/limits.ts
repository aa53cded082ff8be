/**
 * Bounds both sides must agree on: the proxy reads a JSON body whole before it takes an upstream
 * connection, so it refuses past the same limit the service would (with the same 413).
 */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** The service's own message for it, so the browser sees one wording whichever side refused. */
export const JSON_BODY_TOO_LARGE = "The request body is larger than the 1 MiB limit.";

/**
 * The longest line of a CSV an import reads (one cell can hold nearly all of it). DuckDB's
 * reader stops at 2 MB unless told: a 2 MB cell was a 500. Past this, the line is named (400).
 */
export const CSV_LINE_MAX_BYTES = 16 * 1024 * 1024;
