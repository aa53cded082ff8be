/** Pure helpers of the record panel's editors. */
import type { FieldInfo, RecordValue } from "../../../shared/records";
import { editText } from "../values/values.utils";

/** Long text and JSON get a text area (and the large editor) rather than a one-line input. */
export function isLong(field: FieldInfo, value: RecordValue | undefined): boolean {
  if (field.type === "json") return true;
  if (field.type !== "text") return false;
  return typeof value === "string" && (value.length > 60 || value.includes("\n"));
}

/** The text an editor of the panel starts with (JSON pretty-printed, so it can be read). */
export function panelText(field: FieldInfo, value: RecordValue | undefined): string {
  if (field.type === "json" && value !== null && value !== undefined) return JSON.stringify(value, null, 2);
  return editText(field, value);
}
