/**
 * A sorted first page of many matches, found within a bound (pure rules; the store runs them).
 *
 * DuckDB's top-N reads every matching row's sort key: 10,000,000 rows sorted by one column took
 * 100–120 ms, however few rows the page holds. Its own dynamic filter on the sort key only skips
 * row groups by their min/max, which prunes nothing when the column is not clustered. So the
 * store first reads the k-th value T of the first sort term among the matches of a sample of
 * ~50,000 rows of the table (whole vectors: 1% of 10M rows, ~6 ms), then the page among the matches on T's side of it
 * (`term >= T` descending, `term <= T or null` ascending, nulls placed as the order places them):
 * a row-level filter the scan applies before reading the other columns (29–56 ms at 10M).
 *
 * Exact, not estimated: every row the page could hold is on T's side (ties included), as long as
 * at least skip + limit matches are. The count says how many rows the page must have; a page
 * that comes back shorter is read again without the bound (tested with bounds that cut too deep).
 * k is ten times the expected share of the page in the sample, so that rarely happens.
 */
/** Rows a sample should hold: 1% of 10,000,000 (~6 ms), 5% of 1,000,000 (~2 ms). */
export const SAMPLE_ROWS = 50_000;
/** Below this many matches a plain top-N is already quick (1M rows: ~10 ms). */
export const BOUND_MIN_MATCHES = 20_000;
/** Pages ending past this are not bounded (deep pages: store.ts reads them from the end). */
export const BOUND_MAX_END = 1_000;
const SAFETY = 10;

/** The sample's size, as a whole percentage of a table of `rows` rows (1–100). */
export function samplePercent(rows: number): number {
  return Math.min(100, Math.max(1, Math.ceil((100 * SAMPLE_ROWS) / Math.max(1, rows))));
}

/**
 * Which value of the sample's sorted matches to take as the bound (1-based), or undefined when a
 * bound would not pay: `count` matches, the page [skip, skip + limit), a sample of `percent`%.
 */
export function boundRank(count: number, skip: number, limit: number, percent: number): number | undefined {
  const end = skip + limit;
  if (limit <= 0 || end > BOUND_MAX_END || count < BOUND_MIN_MATCHES || count < end * 100) return undefined;
  return Math.max(5, Math.ceil(((end * percent) / 100) * SAFETY));
}

/** How many rows the page [skip, skip + limit) of `count` matches holds. */
export function pageRows(count: number, skip: number, limit: number): number {
  return Math.max(0, Math.min(limit, count - skip));
}
