/**
 * A CSV about to be imported, as a plan the user can read: every cell it changes in an existing
 * Record (old → new), every new Record, and every cell that cannot be written, by line number
 * (the header is line 1), using the same rules as a paste. Empty cell = NULL (contract C).
 */
import { parse } from "csv-parse/browser/esm/sync";
import type { FieldInfo, RecordRow, RecordValue } from "../../../shared/records";
import type { CellChange } from "../clipboard/paste.utils";
import { fmtInt, parseInput, sameValue } from "../values/values.utils";

export interface ImportRow {
  line: number;
  pk: RecordValue;
  values: Record<string, RecordValue>;
}

export type ReadResult = { ok: true; keys: string[]; rows: ImportRow[]; errors: CellChange[] } | { ok: false; message: string };

export function readCsv(text: string, fields: readonly FieldInfo[]): ReadResult {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, info: true, relax_column_count: false }) as unknown as typeof records;
  } catch (e) {
    return { ok: false, message: `The file is not valid CSV: ${(e as Error).message}` };
  }
  if (!records.length) return { ok: false, message: "The file is empty: it needs a header row of Field names." };
  const keys = records[0].record.map((k) => k.trim());
  const unknown = keys.filter((k) => !fields.some((f) => f.key === k && !k.includes(".")));
  if (unknown.length) return { ok: false, message: `line 1: ${unknown.map((k) => `"${k}"`).join(", ")} ${unknown.length === 1 ? "is not a Field" : "are not Fields"} of this table.` };
  const pkField = fields.find((f) => f.primaryKey);
  if (!pkField || !keys.includes(pkField.key)) return { ok: false, message: `line 1: the header must include the primary key ${pkField ? `"${pkField.key}"` : ""} to update or insert by it.` };
  const byKey = keys.map((k) => fields.find((f) => f.key === k)!);
  const rows: ImportRow[] = [];
  const errors: CellChange[] = [];
  const seen = new Set<string>();
  for (const { record, info } of records.slice(1)) {
    const values: Record<string, RecordValue> = {};
    let pk: RecordValue = record[keys.indexOf(pkField.key)];
    byKey.forEach((f, i) => {
      const text = record[i] ?? "";
      const v = text === "" ? (f.nullable && !f.primaryKey ? { ok: true as const, value: null } : parseInput(f, text)) : parseInput(f, text);
      if (!v.ok) errors.push({ pk, field: f, before: undefined, text, error: `line ${info.lines}: ${v.error.message}` });
      else values[f.key] = v.value;
    });
    if (values[pkField.key] !== undefined) pk = values[pkField.key];
    const id = JSON.stringify(pk);
    if (seen.has(id)) errors.push({ pk, field: pkField, before: undefined, text: String(pk), error: `line ${info.lines}: ${pkField.key} ${String(pk)} appears twice in the file.` });
    seen.add(id);
    rows.push({ line: info.lines, pk, values });
  }
  return { ok: true, keys, rows, errors };
}

export interface ImportPlan {
  changes: CellChange[];
  newPks: Set<string>;
  updated: number;
  unchanged: number;
}

const plural = (n: number, one: string) => `${fmtInt(n)} ${one}${n === 1 ? "" : "s"}`;

/** "1 new Record, 2 Records to update": the parts that are not zero. */
export function planSummary(plan: Pick<ImportPlan, "newPks" | "updated" | "unchanged">): string {
  const parts = [
    plan.newPks.size ? plural(plan.newPks.size, "new Record") : "",
    plan.updated ? `${plural(plan.updated, "Record")} to update` : "",
    plan.unchanged ? `${plural(plan.unchanged, "Record")} unchanged` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "nothing to change";
}

/** The cells each row changes, given the current Records of those keys (absent = a new Record). */
export function planImport(rows: readonly ImportRow[], existing: readonly RecordRow[], fields: readonly FieldInfo[], pkField: string): ImportPlan {
  const current = new Map(existing.map((r) => [JSON.stringify(r[pkField]), r]));
  const changes: CellChange[] = [];
  const newPks = new Set<string>();
  let updated = 0;
  let unchanged = 0;
  for (const row of rows) {
    const id = JSON.stringify(row.pk);
    const old = current.get(id);
    if (!old) newPks.add(id);
    let changed = false;
    for (const [key, value] of Object.entries(row.values)) {
      const field = fields.find((f) => f.key === key)!;
      if (old && (key === pkField || sameValue(old[key], value))) continue;
      if (!old && value === null) continue;
      changes.push({ pk: row.pk, field, before: old?.[key], after: value, text: "" });
      changed = true;
    }
    if (old && changed) updated++;
    if (old && !changed) unchanged++;
  }
  return { changes, newPks, updated, unchanged };
}
