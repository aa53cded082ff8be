/**
 * Rows → text for an export file. CSV: RFC 4180 (a header of Field names, CRLF, quotes only
 * where needed), NULL as an empty cell, numbers unformatted, json as JSON text. JSON: one array
 * of objects, written a page at a time so the file never has to be held whole.
 */
import type { RecordRow, RecordValue } from "../../../shared/records";

export type ExportFormat = "csv" | "json";

/**
 * A text a spreadsheet would run as a formula (=, +, -, @, or a tab or return first): with
 * `guard`, written after a ' so that it opens as the text it is (OWASP's "CSV injection": an
 * editor's `=HYPERLINK(…)` ran in the admin's Excel; review 36b #2). Numbers are left alone.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(v: RecordValue | undefined, guard = false): string {
  if (v === null || v === undefined) return "";
  let s = typeof v === "object" ? JSON.stringify(v) : String(v);
  if (guard && typeof v === "string" && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvHeader(keys: readonly string[], guard = false): string {
  return `${keys.map((k) => csvCell(k, guard)).join(",")}\r\n`;
}

/** The first bytes of a CSV file: the BOM (U+FEFF, written as EF BB BF) when asked, then the header. */
export function csvStart(keys: readonly string[], bom: boolean, guard = false): string {
  return (bom ? "\uFEFF" : "") + csvHeader(keys, guard);
}

export function csvRows(rows: readonly RecordRow[], keys: readonly string[], guard = false): string {
  let out = "";
  for (const r of rows) {
    let line = "";
    for (let i = 0; i < keys.length; i++) line += (i ? "," : "") + csvCell(r[keys[i]], guard);
    out += `${line}\r\n`;
  }
  return out;
}

/** A page of a JSON array: `first` says whether a comma is needed before it. */
export function jsonRows(rows: readonly RecordRow[], keys: readonly string[], first: boolean): string {
  let out = "";
  rows.forEach((r, i) => {
    const o: Record<string, RecordValue> = {};
    for (const k of keys) o[k] = r[k] ?? null;
    out += `${first && i === 0 ? "" : ",\n"}${JSON.stringify(o)}`;
  });
  return out;
}

export const jsonOpen = "[\n";
export const jsonClose = "\n]\n";

export function exportFileName(table: string, format: ExportFormat, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return `${table}-${stamp}.${format}`;
}
