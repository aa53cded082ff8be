/**
 * Saved views as data: a named view of one table (filter, sort, columns, join, page size, column
 * widths). Stored in localStorage and exported/imported as the same JSON:
 * `{"version":1,"views":[{"id","name","db","table","search":{…},"widths":{…}}]}`.
 * Whatever comes in is checked like a link (sanitizeSearch): bad parts are dropped, never applied.
 */
import { sanitizeSearch, type ViewSearch } from "../view-search.utils";

export interface SavedView {
  id: string;
  name: string;
  db: string;
  table: string;
  search: ViewSearch;
  widths?: Record<string, number>;
}

export interface ViewsFile {
  version: 1;
  views: SavedView[];
}

/** The parts of the URL a view keeps (not the page, not the open Record). */
export function viewPart(search: ViewSearch): ViewSearch {
  const { page: _page, record: _record, ...rest } = search;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as ViewSearch;
}

const str = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

function readWidths(v: unknown): Record<string, number> | undefined {
  if (!v || typeof v !== "object" || Array.isArray(v)) return undefined;
  const out = Object.fromEntries(Object.entries(v).filter(([, w]) => typeof w === "number" && Number.isFinite(w) && w > 0));
  return Object.keys(out).length ? out : undefined;
}

/** Reads a views file (or the stored list). Returns the valid views and what was dropped. */
export function readViews(raw: unknown): { views: SavedView[]; problems: string[] } {
  const problems: string[] = [];
  const list = raw && typeof raw === "object" && Array.isArray((raw as ViewsFile).views) ? (raw as ViewsFile).views : undefined;
  if (!list) return { views: [], problems: ['This is not a Baseboard views file: expected {"version":1,"views":[…]}.'] };
  const views: SavedView[] = [];
  list.forEach((v: unknown, i) => {
    const o = v as Partial<SavedView> | null;
    if (!o || !str(o.name) || !str(o.db) || !str(o.table)) {
      problems.push(`View ${i + 1} has no name, db or table and was skipped.`);
      return;
    }
    const s = sanitizeSearch((o.search ?? {}) as Record<string, unknown>, "the file");
    problems.push(...s.problems.map((p) => `${o.name}: ${p}`));
    views.push({ id: str(o.id) ? o.id : newViewId(), name: o.name.trim().slice(0, 120), db: o.db, table: o.table, search: viewPart(s.search), widths: readWidths(o.widths) });
  });
  return { views, problems };
}

export function newViewId(): string {
  return `v${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** Saving under a name the table already has replaces that view (it keeps its place and id). */
export function upsertView(views: readonly SavedView[], v: Omit<SavedView, "id">): SavedView[] {
  const i = views.findIndex((x) => x.db === v.db && x.table === v.table && x.name === v.name);
  if (i >= 0) return views.map((x, j) => (j === i ? { ...v, id: x.id } : x));
  return [...views, { ...v, id: newViewId() }];
}

/** Imported views join the list; one with the same id or the same table and name replaces it. */
export function mergeViews(views: readonly SavedView[], incoming: readonly SavedView[]): SavedView[] {
  let out = [...views];
  for (const v of incoming) {
    const i = out.findIndex((x) => x.id === v.id || (x.db === v.db && x.table === v.table && x.name === v.name));
    if (i >= 0) out[i] = { ...v, id: out[i].id };
    else out = [...out, v];
  }
  return out;
}

export function toFile(views: readonly SavedView[]): ViewsFile {
  return { version: 1, views: [...views] };
}
