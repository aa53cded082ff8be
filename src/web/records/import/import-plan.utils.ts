/**
 * A CSV about to be imported, as a plan the user can read: every cell it changes in an existing
 * Record (old → new), every new Record, and every cell that cannot be written, by line number
 * (the header is line 1), using the same rules as a paste. Empty cell = NULL (contract C).
 */
import { didYouMean } from "../../../shared/near-name";
import { parse } from "csv-parse/browser/esm/sync";
import type { FieldInfo, RecordRow, RecordValue } from "../../../shared/records";
import { fail } from "../../../shared/errors";
import type { CellChange } from "../clipboard/paste.utils";
import { fmtInt, parseInput, sameValue } from "../values/values.utils";
import { type CsvParseError, csvProblem, rowStartLine, type SyncCsvParse, widthProblem } from "../../../shared/csv-problem";
import { CSV_LINE_MAX_BYTES } from "../../../shared/limits";

export interface ImportRow {
  line: number;
  pk: RecordValue;
  values: Record<string, RecordValue>;
  /** The row's cells as in the file, to write a file without the rows that cannot be imported. */
  cells: string[];
  /** This row has a cell that cannot be written (or an empty or repeated primary key). */
  bad?: boolean;
  /** Its cells could not be matched to the header (more or fewer of them): no key to look up. */
  misshapen?: boolean;
}

export type ReadResult = { ok: true; keys: string[]; rows: ImportRow[]; errors: CellChange[] } | { ok: false; message: string };

/**
 * The file's text, or why it cannot be read as an import: not UTF-8 (a Latin-1 "ü" would show
 * as "�" in the preview and be refused by the service only on Import).
 */
export function fileText(bytes: ArrayBuffer): { ok: true; text: string } | { ok: false; message: string } {
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    const at = firstBadLine(new Uint8Array(bytes));
    return { ok: false, message: `line ${at}: the file is not UTF-8 text (it was saved in another encoding, such as Latin-1 or Windows-1252). Save it as UTF-8 (in Excel: "CSV UTF-8") and import it again.` };
  }
}

/** The line (1-based) of the first byte sequence that is not UTF-8. */
function firstBadLine(b: Uint8Array): number {
  let line = 1;
  let start = 0;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (let i = 0; i <= b.length; i++) {
    if (i < b.length && b[i] !== 10) continue;
    try {
      decoder.decode(b.subarray(start, i));
    } catch {
      return line;
    }
    line++;
    start = i + 1;
  }
  return line;
}

/**
 * Where a row of the file is, as messages name it: a CSV's line (the header is line 1), or a JSON
 * file's Record (its n-th object; "line" 1 is its Fields, the keys of its objects).
 */
export interface RowPlaces {
  at(line: number): string;
  /** After "appears twice in the file (also …)". */
  also(line: number): string;
}
const CSV_PLACES: RowPlaces = { at: (line) => `line ${line}`, also: (line) => `on line ${line}` };
const JSON_PLACES: RowPlaces = { at: (line) => (line === 1 ? "the file's Fields" : `item ${line - 1}`), also: (line) => `as item ${line - 1}` };

/** The rows of a file as cells, the header first, each with the line it is named by. */
type FileRows = { record: string[]; info: { lines: number } }[];

export function readCsv(text: string, fields: readonly FieldInfo[]): ReadResult {
  let records: FileRows;
  try {
    // Rows of the wrong width are read too, and listed below with every other problem, so
    // that one pass over the file shows them all (a refusal named only the first).
    records = parse(text, { bom: true, skip_empty_lines: true, info: true, relax_column_count: true, max_record_size: CSV_LINE_MAX_BYTES }) as unknown as typeof records;
  } catch (e) {
    return { ok: false, message: `The file is not valid CSV: ${csvProblem(e as CsvParseError, undefined, rowStartLine(e as CsvParseError, text, parse as SyncCsvParse))}` };
  }
  if (!records.length) return { ok: false, message: "The file is empty: it needs a header row of Field names." };
  return readRows(records, fields, CSV_PLACES);
}

/**
 * A JSON file as an import reads it: an array of objects, one Record each (what Export → JSON
 * writes: review 54b #1, the README offered it for a round trip and the import read it as CSV).
 * Its rows are named as the array's items ("item 3": review 55b #5, "Record 3" beside a column of
 * keys read as a key).
 * Every object names the same Fields (one left out would be set to null, not left alone); a
 * value is read as its text would be in a CSV the export writes (null: an empty cell; json: its
 * JSON text), so that a file checks, previews and imports exactly as that CSV does.
 */
export function readJson(text: string, fields: readonly FieldInfo[]): ReadResult & { csv?: string; unit?: "item" } {
  let items: unknown;
  try {
    items = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    return { ok: false, message: `The file is not valid JSON (${(e as Error).message.replace(/^JSON\.parse: /, "")}). An import takes a CSV file, or a JSON array of Records as Export → JSON writes it.` };
  }
  if (!Array.isArray(items)) return { ok: false, message: "The JSON file holds no array: an import takes an array of Records, one object each, as Export → JSON writes it." };
  if (!items.length) return { ok: false, message: "The file is an empty array: there is no Record to import." };
  const keys: string[] = [];
  const objects: Record<string, RecordValue>[] = [];
  for (const [i, item] of items.entries()) {
    if (!item || typeof item !== "object" || Array.isArray(item)) return { ok: false, message: `Item ${i + 1} of the array is not an object: an import takes an array of Records, one object each, as Export → JSON writes it.` };
    for (const k of Object.keys(item)) if (!keys.includes(k)) keys.push(k);
    objects.push(item as Record<string, RecordValue>);
  }
  for (const [i, o] of objects.entries()) {
    const missing = keys.find((k) => !(k in o));
    if (missing !== undefined) {
      return { ok: false, message: `Item ${i + 1} of the array has no "${missing}", which other items of the file have: give every Record the same Fields (null for no value), or it would be set to null.` };
    }
  }
  const cells = (o: Record<string, RecordValue>) => keys.map((k) => (o[k] === null ? "" : typeof o[k] === "object" ? JSON.stringify(o[k]) : String(o[k])));
  const read = readRows([{ record: keys, info: { lines: 1 } }, ...objects.map((o, i) => ({ record: cells(o), info: { lines: i + 2 } }))], fields, JSON_PLACES);
  // Its rows are the array's items, and are named so ("item 3", "Skip 1 invalid item").
  return read.ok ? { ...read, csv: csvWithout(read.keys, read.rows.map((r) => ({ ...r, bad: false }))), unit: "item" } : read;
}

/** Whether a file is to be read as JSON: by its name or type, else by its first character. */
export function isJsonFile(name: string, type: string, text: string): boolean {
  if (/\.json$/i.test(name) || /^application\/json\b/i.test(type)) return true;
  if (/\.csv$/i.test(name) || /^text\/csv\b/i.test(type)) return false;
  return /^\uFEFF?\s*\[/.test(text);
}

function readRows(records: FileRows, fields: readonly FieldInfo[], places: RowPlaces): ReadResult {
  const keys = records[0].record.map((k) => k.trim());
  const unknown = keys.filter((k) => !fields.some((f) => f.key === k && !k.includes(".")));
  // Excel writes semicolons between values where a comma is the decimal mark: say so, not only that the header is unknown.
  const separator = keys.length === 1 && /[;\t]/.test(keys[0]) ? (keys[0].includes(";") ? "semicolons (;)" : "tabs") : undefined;
  if (unknown.length && separator) {
    return { ok: false, message: `${places.at(1)}: the values seem to be separated by ${separator}; an import reads commas. Save the file as "CSV (comma delimited)" (or "CSV UTF-8") and import it again.` };
  }
  if (unknown.length) {
    // Each with the Field it most likely meant, and the table's Fields (review 39b #7).
    const own = fields.filter((f) => !f.key.includes(".")).map((f) => f.key);
    const named = unknown.map((k) => `"${k}"${didYouMean(k, own)}`).join(", ");
    return { ok: false, message: `${places.at(1)}: ${named} ${unknown.length === 1 ? "is not a Field" : "are not Fields"} of this table. Its Fields: ${own.join(", ")}.` };
  }
  const pkField = fields.find((f) => f.primaryKey);
  if (!pkField || !keys.includes(pkField.key)) return { ok: false, message: `${places.at(1)}: the header must include the primary key ${pkField ? `"${pkField.key}"` : ""} to update or insert by it.` };
  const byKey = keys.map((k) => fields.find((f) => f.key === k)!);
  const rows: ImportRow[] = [];
  const errors: CellChange[] = [];
  // Each key's first row (its index in `rows`), and the keys already said to repeat.
  const seen = new Map<string, number>();
  const repeated = new Set<string>();
  for (const { record, info } of records.slice(1)) {
    if (record.length !== keys.length) {
      const pk = `(${places.at(info.lines)})`;
      errors.push({ pk, field: pkField, before: undefined, text: record.join(","), error: widthProblem(info.lines, record.length, keys.length) });
      rows.push({ line: info.lines, pk, values: {}, cells: record, bad: true, misshapen: true });
      continue;
    }
    const values: Record<string, RecordValue> = {};
    let pk: RecordValue = record[keys.indexOf(pkField.key)];
    const errorsBefore = errors.length;
    byKey.forEach((f, i) => {
      const text = record[i] ?? "";
      // The primary key is checked once, below, with a message of its own.
      if (f.primaryKey && text.trim() === "") return;
      const v = text === "" ? (f.nullable && !f.primaryKey ? { ok: true as const, value: null } : parseInput(f, text)) : csvCellInput(f, text);
      if (!v.ok) errors.push({ pk, field: f, before: undefined, text, error: `${places.at(info.lines)}: ${v.error.message}` });
      else values[f.key] = v.value;
    });
    if (values[pkField.key] !== undefined) pk = values[pkField.key];
    const id = JSON.stringify(pk);
    if (String(record[keys.indexOf(pkField.key)] ?? "").trim() === "") {
      errors.push({ pk: `(${places.at(info.lines)})`, field: pkField, before: undefined, text: "", error: `${places.at(info.lines)}: the primary key ${pkField.key} is empty; every row needs one.` });
    } else if (seen.has(id)) {
      // Both lines, not the later alone: which one was meant cannot be told, and skipping the
      // invalid lines imported the first one silently (review 46b #10).
      const first = rows[seen.get(id)!];
      if (!repeated.has(id)) {
        repeated.add(id);
        errors.push({ pk, field: pkField, before: undefined, text: String(pk), error: `${places.at(first.line)}: ${pkField.key} ${String(pk)} appears twice in the file (also ${places.also(info.lines)}); keep one of them.` });
        first.bad = true;
      }
      errors.push({ pk, field: pkField, before: undefined, text: String(pk), error: `${places.at(info.lines)}: ${pkField.key} ${String(pk)} appears twice in the file (also ${places.also(first.line)}); keep one of them.` });
    }
    if (!seen.has(id)) seen.set(id, rows.length);
    rows.push({ line: info.lines, pk, values, cells: record, ...(errors.length > errorsBefore ? { bad: true } : {}) });
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

/**
 * What an import did, in words: "100 Records added, 173 changed, 199,827 already as the file has
 * them". `changed` undefined (an entry written before it was counted): every Record the file
 * named that was there is "updated". Said by the import's result and by Activity.
 */
export function importCounts(o: { inserted: number; updated: number; changed?: number }): string {
  const parts = [`${plural(o.inserted, "Record")} added`, o.changed === undefined ? `${fmtInt(o.updated)} updated` : `${fmtInt(o.changed)} changed`];
  if (o.changed !== undefined && o.updated > o.changed) parts.push(`${fmtInt(o.updated - o.changed)} already as the file has them`);
  return parts.join(", ");
}

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

/** A CSV cell as written back: quoted when it holds a comma, a quote, a line break or edge spaces. */
function csvCell(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The file again without the rows that cannot be imported ("skip the invalid rows"). */
export function csvWithout(keys: readonly string[], rows: readonly ImportRow[]): string {
  const lines = [keys, ...rows.filter((r) => !r.bad).map((r) => r.cells)].map((cells) => cells.map(csvCell).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * What undoing an import takes back, from the preview's before-images (read before sending):
 * the cells it changed in Records that were there (old → new) and the Records it added.
 */
export function importUndo(plan: ImportPlan, rows: readonly ImportRow[]): { changes: { pk: RecordValue; field: string; before: RecordValue; after: RecordValue }[]; inserted: RecordRow[] } {
  const changes = plan.changes
    .filter((c) => !plan.newPks.has(JSON.stringify(c.pk)))
    .map((c) => ({ pk: c.pk, field: c.field.key, before: c.before ?? null, after: c.after ?? null }));
  const inserted = rows.filter((r) => !r.bad && plan.newPks.has(JSON.stringify(r.pk))).map((r) => ({ ...r.values }));
  return { changes, inserted };
}

/**
 * A cell of the file as the service's import reads it (service/records/import/cells.ts), which
 * is stricter than a cell typed or pasted into the grid: numbers written out (no thousands commas
 * or underscores: the preview passed "98,500", then the service refused the whole file) and
 * booleans as true or false.
 */
function csvCellInput(f: FieldInfo, text: string) {
  if (f.type === "number" && /[,_]/.test(text)) {
    return fail("validation_error", `${f.key} takes a number written out, such as 42 or -4.25, in a file: "${text}" has a thousands separator (write ${text.replace(/[,_]/g, "")}).`);
  }
  if (f.type === "boolean" && !/^(true|false)$/i.test(text)) {
    return fail("validation_error", `${f.key} takes true or false in a file, not "${text}".`);
  }
  return parseInput(f, text);
}
