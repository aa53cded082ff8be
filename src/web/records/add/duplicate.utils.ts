/**
 * "Duplicate this Record" (issue 24): the Add Record form prefilled with a Record's values as
 * the user would type them, the primary key left empty (a copy needs a key of its own).
 */
import type { FieldInfo, RecordRow } from "../../../shared/records";
import { editText } from "../values/values.utils";
import { formFields } from "./new-record.utils";

export function duplicateTexts(fields: readonly FieldInfo[], row: RecordRow): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const f of formFields(fields)) {
    if (f.primaryKey) continue;
    const t = editText(f, row[f.key]);
    if (t !== "") texts[f.key] = t;
  }
  return texts;
}
