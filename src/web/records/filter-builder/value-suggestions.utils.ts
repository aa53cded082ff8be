/**
 * Suggestions from Records already on the page, for an upstream without the distinct extension
 * (the hosted interface): the most frequent values of one Field among the rows the grid loaded.
 */
import type { RecordRow } from "../../../shared/records";

export type Suggestion = string | number | boolean;

export function suggestFromRows(pages: readonly (readonly RecordRow[])[], key: string, prefix: string, limit = 20): Suggestion[] {
  const counts = new Map<Suggestion, number>();
  const p = prefix.toLowerCase();
  for (const rows of pages) {
    for (const row of rows) {
      const v = row[key];
      if (v === null || v === undefined || typeof v === "object") continue;
      if (p && !String(v).toLowerCase().startsWith(p)) continue;
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
    .slice(0, limit)
    .map(([v]) => v);
}
