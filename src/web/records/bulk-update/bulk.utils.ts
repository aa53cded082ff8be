/** Pure parts of a bulk update: reading the form, and the undo changes from a snapshot. */
import { type Result, fail, ok } from "../../../shared/errors";
import type { FieldInfo, RecordRow, RecordValue } from "../../../shared/records";
import { parseInput, sameValue } from "../values/values.utils";
import type { Change } from "../undo/undo.utils";

export interface BulkRow {
  field: string;
  text: string;
  isNull: boolean;
}

export function readBulkValues(rows: readonly BulkRow[], fields: readonly FieldInfo[]): Result<{ key: string; value: RecordValue }[]> {
  if (!rows.length) return fail("validation_error", "Add at least one field to set.");
  const out: { key: string; value: RecordValue }[] = [];
  for (const r of rows) {
    const f = fields.find((x) => x.key === r.field);
    if (!f) return fail("validation_error", `Choose a field for every row ("${r.field}" is not one).`);
    if (out.some((o) => o.key === f.key)) return fail("validation_error", `${f.key} is set twice; keep one.`);
    if (r.isNull) {
      if (!f.nullable) return fail("validation_error", `${f.key} cannot be NULL.`);
      out.push({ key: f.key, value: null });
      continue;
    }
    // In a cell an empty number or date means NULL; here it would blank many Records at once,
    // so NULL must be asked for with its button.
    if (r.text.trim() === "" && !["text", "image", "attachment"].includes(f.type)) {
      return fail("validation_error", `Enter a value for ${f.key}${f.nullable ? ", or press NULL to clear it" : ""}.`);
    }
    const v = parseInput(f, r.text);
    if (!v.ok) return v;
    out.push({ key: f.key, value: v.value });
  }
  return ok(out);
}

/** The cells this update really changes (equal values are not worth undoing). */
export function changesFromSnapshot(snapshot: readonly RecordRow[], pkField: string, values: readonly { key: string; value: RecordValue }[]): Change[] {
  const out: Change[] = [];
  for (const row of snapshot) {
    for (const v of values) {
      const before = row[v.key] ?? null;
      if (!sameValue(before, v.value)) out.push({ pk: row[pkField], field: v.key, before, after: v.value });
    }
  }
  return out;
}
