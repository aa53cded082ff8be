/**
 * The records view lives in the URL so it can be bookmarked, reloaded and shared:
 * `?filter={…}&sort=age,-full_name&cols=a,b&join=departments:department=department&page=2&size=50`.
 * Anything malformed falls back to a default and yields a message; a bad link never crashes.
 */
import { allOperators, type FilterGroup } from "../../shared/filter";
import type { JoinUnit, QueryBody, SortUnit } from "../../shared/records";
import { parseFilterValue } from "./filter-builder/filter-parse.utils";
import { fmtInt } from "./values/values.utils";

export const pageSizes = [25, 50, 100, 500, 1000] as const;
export type PageSize = (typeof pageSizes)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 50;

/** What the router keeps (all optional: absent = default, so clean URLs stay short). */
export interface ViewSearch {
  filter?: FilterGroup;
  sort?: string;
  cols?: string;
  join?: string;
  page?: number;
  size?: number;
  /** The Record open in the side panel: its primary key as text. */
  record?: string;
}

export interface View {
  filter: FilterGroup | undefined;
  sort: SortUnit[];
  cols: string[] | undefined;
  join: JoinUnit | undefined;
  page: number;
  size: PageSize;
}

const NAME_RE = /^[A-Za-z0-9_$][A-Za-z0-9_$.-]*$/;

export function parseSort(s: string): SortUnit[] | undefined {
  if (s === "") return [];
  const out: SortUnit[] = [];
  for (const part of s.split(",")) {
    const desc = part.startsWith("-");
    const key = desc ? part.slice(1) : part;
    if (!NAME_RE.test(key) || out.some((u) => u.key === key)) return undefined;
    out.push({ key, direction: desc ? "descending" : "ascending" });
  }
  return out;
}

export function formatSort(sort: readonly SortUnit[]): string | undefined {
  return sort.length ? sort.map((u) => (u.direction === "descending" ? `-${u.key}` : u.key)).join(",") : undefined;
}

export function parseCols(s: string): string[] | undefined {
  const cols = s.split(",").filter(Boolean);
  return cols.length && cols.every((c) => NAME_RE.test(c)) && new Set(cols).size === cols.length ? cols : undefined;
}

export function parseJoin(s: string): JoinUnit | undefined {
  const m = /^([A-Za-z0-9_$-]+):(.+)$/.exec(s);
  if (!m) return undefined;
  const rules = m[2].split(",").map((r) => r.split("="));
  if (!rules.every((r) => r.length === 2 && NAME_RE.test(r[0]) && NAME_RE.test(r[1]))) return undefined;
  return { targetTable: m[1], rules: rules.map(([tableKey, targetTableKey]) => ({ tableKey, targetTableKey })) };
}

export function formatJoin(join: JoinUnit | undefined): string | undefined {
  if (!join) return undefined;
  return `${join.targetTable}:${join.rules.map((r) => `${r.tableKey}=${r.targetTableKey}`).join(",")}`;
}

/**
 * The URL's `cols` after the join changes: the user's own columns stay as chosen, the old join's
 * columns go, and the new join's columns are added at the end (all of them, as with no `cols`).
 * Without a choice, or when the new table's fields are unknown, everything is shown.
 */
export function colsAfterJoin(cols: readonly string[] | undefined, join: JoinUnit | undefined, targetFields: readonly { key: string }[] | undefined): string | undefined {
  if (!cols) return undefined;
  const own = cols.filter((c) => !c.includes("."));
  if (!join) return own.join(",");
  if (!targetFields) return undefined;
  return [...own, ...targetFields.map((f) => `${join.targetTable}.${f.key}`)].join(",");
}

function toInt(v: unknown): number | undefined {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) ? n : undefined;
}

/** Router validateSearch: keep what is valid; `problems` says what was dropped and why. */
export function sanitizeSearch(raw: Record<string, unknown>, where = "the link"): { search: ViewSearch; problems: string[] } {
  const search: ViewSearch = {};
  const problems: string[] = [];
  if (raw.filter !== undefined) {
    let value: unknown = raw.filter;
    let notJson: string | undefined;
    if (typeof value === "string") {
      try {
        value = JSON.parse(value);
      } catch (e) {
        notJson = (e as Error).message;
      }
    }
    // A lone condition in a link (easy to write by hand) is read as a group of one (review 38b #3).
    if (value !== null && typeof value === "object" && !Array.isArray(value) && "key" in value && "operator" in value && !("and" in value) && !("or" in value)) value = { and: [value] };
    const r = notJson === undefined ? parseFilterValue(value, { operators: allOperators }) : undefined;
    if (r?.ok) search.filter = r.value;
    else problems.push(`The filter in ${where} was ignored: ${r ? (r.ok ? "" : r.error.message) : `it is not JSON (${notJson}).`}`);
  }
  if (raw.sort !== undefined) {
    const s = typeof raw.sort === "string" ? parseSort(raw.sort) : undefined;
    if (s) search.sort = formatSort(s);
    else problems.push(`The sort "${String(raw.sort)}" in ${where} was ignored: use field names separated by commas, "-" for descending.`);
  }
  if (raw.cols !== undefined) {
    const c = typeof raw.cols === "string" ? parseCols(raw.cols) : undefined;
    if (c) search.cols = c.join(",");
    else problems.push(`The column list "${String(raw.cols)}" in ${where} was ignored; all columns are shown.`);
  }
  if (raw.join !== undefined) {
    const j = typeof raw.join === "string" ? parseJoin(raw.join) : undefined;
    if (j) search.join = formatJoin(j);
    else problems.push(`The join "${String(raw.join)}" in ${where} was ignored: use table:field=targetField.`);
  }
  if (raw.page !== undefined) {
    const p = toInt(raw.page);
    if (p !== undefined && p >= 1) search.page = p;
    else problems.push(`Page "${String(raw.page)}" is not a page number; showing page 1.`);
  }
  if (raw.size !== undefined) {
    const s = toInt(raw.size);
    if (s !== undefined && (pageSizes as readonly number[]).includes(s)) search.size = s;
    else problems.push(`Page size "${String(raw.size)}" is not offered; using ${DEFAULT_PAGE_SIZE} (choose ${pageSizes.join(", ")}).`);
  }
  if (typeof raw.record === "string" && raw.record !== "") search.record = raw.record;
  else if (typeof raw.record === "number") search.record = String(raw.record);
  return { search, problems };
}

export function toView(search: ViewSearch): View {
  return {
    filter: search.filter,
    sort: (search.sort && parseSort(search.sort)) || [],
    cols: search.cols ? parseCols(search.cols) : undefined,
    join: search.join ? parseJoin(search.join) : undefined,
    page: search.page ?? 1,
    size: (search.size as PageSize | undefined) ?? DEFAULT_PAGE_SIZE,
  };
}

/**
 * The next view, reusing the previous view's filter, sort, columns and join objects where they
 * did not change, so that memoized parts of the page (the grid's rows, its header, the filter
 * builder) are not re-rendered by a navigation that changed something else (the filter, a page).
 */
export function reuseViewParts(prev: View | undefined, next: View): View {
  if (!prev) return next;
  const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
  return {
    ...next,
    filter: same(prev.filter, next.filter) ? prev.filter : next.filter,
    sort: same(prev.sort, next.sort) ? prev.sort : next.sort,
    cols: same(prev.cols, next.cols) ? prev.cols : next.cols,
    join: same(prev.join, next.join) ? prev.join : next.join,
  };
}

/** The query body for one page of the view. The primary key is always fetched: edits need it. */
export function buildQueryBody(view: View, primaryKey: string | undefined): QueryBody {
  const body: QueryBody = { limit: view.size, skip: (view.page - 1) * view.size, sort: view.sort };
  if (view.filter) body.filter = view.filter;
  if (view.join) body.join = [view.join];
  if (view.cols) body.select = primaryKey && !view.cols.includes(primaryKey) ? [primaryKey, ...view.cols] : view.cols;
  return body;
}

export function lastPage(count: number, size: number): number {
  return Math.max(1, Math.ceil(count / size));
}

/** "1–50 of 1,234" */
export function rangeLabel(page: number, size: number, count: number): string {
  if (count === 0) return "0 of 0";
  const from = Math.min(count, (page - 1) * size + 1);
  const to = Math.min(count, page * size);
  if ((page - 1) * size >= count) return `none of ${fmtInt(count)}`;
  return `${fmtInt(from)}–${fmtInt(to)} of ${fmtInt(count)}`;
}
