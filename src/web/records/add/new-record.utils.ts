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
