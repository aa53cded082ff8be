/** Pure helpers of applying a live change to cached pages: which views it may reorder or refilter, and the patch. */
import { type RecordRow, recordKeyText } from "../../../shared/records";

/** Does a filter tree test any of these Fields? Then a change to them may move Records in or out. */
export function filterUses(filter: unknown, fields: ReadonlySet<string>): boolean {
  const stack: unknown[] = [filter];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n !== "object") continue;
    if (Array.isArray(n)) {
      stack.push(...n);
      continue;
    }
    const o = n as Record<string, unknown>;
    if (typeof o.key === "string" && fields.has(o.key)) return true;
    if (o.and) stack.push(o.and);
    if (o.or) stack.push(o.or);
  }
  return false;
}

/** The rows with the changed Records' new values (only the Fields a row has); the same array when none is on it. */
export function patchRows(rows: readonly RecordRow[], pkField: string, byKey: ReadonlyMap<string, Record<string, unknown>>): { rows: RecordRow[]; hit: RecordRow[] } {
  const hit: RecordRow[] = [];
  const next = rows.map((r) => {
    const values = byKey.get(recordKeyText(r[pkField]));
    if (!values) return r;
    const patched: RecordRow = { ...r };
    for (const [k, v] of Object.entries(values)) if (k in r) patched[k] = v as RecordRow[string];
    hit.push(patched);
    return patched;
  });
  return { rows: hit.length ? next : (rows as RecordRow[]), hit };
}
