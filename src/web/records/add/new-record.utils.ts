/**
 * The "Add Record" form as data (issue 24 item 1): Fields in the order the form shows them
 * (primary key first), which are required, and the texts typed → one Record to insert, checked
 * with the shared value model before anything is sent.
 */
import type { FieldInfo, RecordRow } from "../../../shared/records";
import { parseInput } from "../values/values.utils";

/** Joined Fields (a.b) belong to another table and are not part of a new Record. */
export function formFields(fields: readonly FieldInfo[]): FieldInfo[] {
  const own = fields.filter((f) => !f.key.includes("."));
  return [...own.filter((f) => f.primaryKey), ...own.filter((f) => !f.primaryKey)];
}

export const isRequired = (f: FieldInfo) => f.primaryKey || !f.nullable;

/**
 * Texts by Field key → the Record, or the problems by Field key. An empty input leaves a
 * nullable Field out (it is stored as null); a required one must be filled.
 */
export function buildRecord(fields: readonly FieldInfo[], texts: Readonly<Record<string, string>>): { ok: true; record: RecordRow } | { ok: false; problems: Record<string, string> } {
  const record: RecordRow = {};
  const problems: Record<string, string> = {};
  for (const f of formFields(fields)) {
    const text = texts[f.key] ?? "";
    if (text.trim() === "") {
      if (isRequired(f)) problems[f.key] = `${f.key} is required.`;
      continue;
    }
    const r = parseInput(f, text);
    if (r.ok) record[f.key] = r.value;
    else problems[f.key] = r.error.message;
  }
  return Object.keys(problems).length ? { ok: false, problems } : { ok: true, record };
}

/**
 * A block pasted into the blank row's cell `at` (a spreadsheet's cells: tabs between, lines
 * after): its first line spread over the row's Fields from there, in the order shown, as a paste
 * onto the grid spreads; undefined for plain text (one cell, typed as is). `more`: the lines
 * after the first, which the blank row does not take (review 52b #1: the whole block went into
 * the key, tabs and all, and Enter added it as one Record).
 */
export function spreadPaste(rows: readonly (readonly string[])[], shown: readonly string[], at: string): { texts: Record<string, string>; more: number } | undefined {
  if (rows.length === 0 || (rows.length === 1 && rows[0].length <= 1)) return undefined;
  const from = shown.indexOf(at);
  if (from < 0) return undefined;
  const texts: Record<string, string> = {};
  rows[0].forEach((cell, i) => {
    const key = shown[from + i];
    if (key !== undefined) texts[key] = cell;
  });
  return { texts, more: rows.length - 1 };
}