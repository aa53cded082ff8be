/**
 * Values by field type (decisions §3): checking a value before it is sent (so a wrong type is
 * refused in the browser, with a message that says what to type), parsing what the user typed,
 * formatting a cell, and guessing field types from rows when the upstream has no fields endpoint.
 */
import { formatDateTime, formatDay } from "../../ui/dates";
import { type Result, fail, ok } from "../../../shared/errors";
import type { FieldInfo, FieldType, RecordRow, RecordValue } from "../../../shared/records";
import { fieldValueProblem, isValidDate, isValidDateTime, MAX_JSON_DEPTH, objectUrl, parseNumberText, pixelBox } from "../../../shared/values";

export { isValidDate, isValidDateTime, objectUrl };

/** Does `value` have the field's type exactly (decisions §5)? */
export function checkValue(field: FieldInfo, value: RecordValue): Result<RecordValue> {
  const name = field.key;
  const problem = fieldValueProblem(field, value);
  if (!problem) return ok(value);
  switch (problem.kind) {
    case "null":
      return fail("validation_error", `${name} cannot be empty (null).`);
    case "emptyKey":
      return fail("validation_error", `${name} is the primary key and cannot be empty.`);
    case "nul":
      return fail("validation_error", `${name} contains the NUL character (U+0000), which text cannot hold.`);
    case "surrogate":
      return fail("validation_error", `${name} contains half of a character (a lone surrogate), which text cannot hold.`);
    case "objectKey":
      return fail("validation_error", `${name} takes an object key: ${problem.detail}`);
    case "depth":
      return fail("validation_error", `${name} is nested more than ${MAX_JSON_DEPTH} levels deep.`);
    case "number":
      return fail("validation_error", `${name}: ${JSON.stringify(value)} ${problem.detail}; it is refused rather than rounded.`);
  }
  switch (field.type) {
    case "number":
      return fail("validation_error", `${name} needs a number, e.g. 42 or 3.5; ${JSON.stringify(value)} is not one.`);
    case "boolean":
      return fail("validation_error", `${name} needs true or false.`);
    case "date":
      return fail("validation_error", `${name} needs a date as YYYY-MM-DD, e.g. 2024-03-01 (years 0001–9999); ${JSON.stringify(value)} is not one.`);
    case "datetime":
      return fail("validation_error", `${name} needs a date and time with a zone, to the millisecond at most, e.g. 2024-03-01T09:30:00Z or 2024-03-01T09:30:00.250Z (years 0001–9999).`);
    default:
      return fail("validation_error", `${name} needs text.`);
  }
}

/**
 * Text typed into an editor → a value of the field's type. An empty input means "" for text-like
 * fields (null is chosen explicitly) and null for the others when the field allows it.
 */
export function parseInput(field: FieldInfo, text: string): Result<RecordValue> {
  const t = text.trim();
  // A key with a blank before or after it (easily pasted) is another Record that looks the same
  // as the one without (review 51b #1: " E00002" added beside "E00002"). The service takes any
  // text as a key; typed or pasted in the app, it is refused with the reason.
  if (field.primaryKey && t !== "" && t !== text && field.type === "text") {
    return fail("validation_error", `${field.key} is the primary key and starts or ends with a blank (a space, tab or line break): "${t}" and "${text}" would be two Records that look the same. Remove the blank.`);
  }
  // Nor a tab or line break inside one: never meant, and shown as a space (review 52b #1: a
  // spreadsheet block pasted into the blank row's key became one Record's key, tabs and all).
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (field.primaryKey && field.type === "text" && /[\u0000-\u001f\u007f]/.test(text)) {
    return fail("validation_error", `${field.key} is the primary key and holds a tab, line break or other control character: a key is one line of text. Paste cells onto the grid, or type the key alone.`);
  }
  switch (field.type) {
    case "number": {
      if (t === "") return checkValue(field, null);
      // The grid shows 195,800: a value copied from a cell (US thousands commas) is accepted back.
      const n = parseNumberText(text);
      if (n.ok) return ok(n.value);
      return /is not a number/.test(n.error.message)
        ? fail("validation_error", `${field.key} needs a number, e.g. 42 or 3.5; "${text}" is not one.`)
        : fail("validation_error", `${field.key}: ${n.error.message}`);
    }
    case "boolean":
      if (t === "") return checkValue(field, null);
      if (/^(true|yes|1)$/i.test(t)) return ok(true);
      if (/^(false|no|0)$/i.test(t)) return ok(false);
      return fail("validation_error", `${field.key} needs true or false; "${text}" is neither.`);
    case "date":
    case "datetime":
      if (t === "") return checkValue(field, null);
      return checkValue(field, t);
    case "json":
      if (t === "") return checkValue(field, null);
      try {
        return checkValue(field, JSON.parse(t) as RecordValue);
      } catch (e) {
        return fail("validation_error", `${field.key} needs valid JSON: ${(e as Error).message}`);
      }
    default:
      return checkValue(field, text);
  }
}

/** The text an editor starts with for a value. */
export function editText(field: FieldInfo, value: RecordValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (field.type === "json") return JSON.stringify(value);
  return String(value);
}

const numberFmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });
const intFmt = new Intl.NumberFormat("en-US");
/** "1,234": one shared formatter (creating one per call costs ~1 ms). */
export const fmtInt = (n: number) => intFmt.format(n);

/** Display text of a non-null cell value. */
export function formatValue(type: FieldType, value: RecordValue): string {
  if (value === null) return "NULL";
  switch (type) {
    case "number":
      return typeof value === "number" ? numberFmt.format(value) : String(value);
    case "date":
      return typeof value === "string" && isValidDate(value) ? formatDay(value) : String(value);
    case "datetime":
      return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? formatDateTime(value) : String(value);
    case "boolean":
      return value ? "true" : "false";
    case "json":
      return JSON.stringify(value);
    default:
      return typeof value === "string" ? value : JSON.stringify(value);
  }
}

function guessType(values: RecordValue[]): FieldType {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (!present.length) return "text";
  if (present.every((v) => typeof v === "number")) return "number";
  if (present.every((v) => typeof v === "boolean")) return "boolean";
  if (present.every((v) => typeof v === "object")) return "json";
  if (present.every((v) => typeof v === "string" && isValidDate(v))) return "date";
  if (present.every((v) => typeof v === "string" && isValidDateTime(v))) return "datetime";
  return "text";
}

/** Fields from the first rows, for upstreams without the fields endpoint. */
export function inferFields(rows: readonly RecordRow[], primaryKey: string | undefined): FieldInfo[] {
  const keys: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  return keys.map((key) => ({
    key,
    type: guessType(rows.map((r) => r[key] ?? null)),
    nullable: key !== primaryKey,
    primaryKey: key === primaryKey,
  }));
}

/** Image URL through the proxy, resized to the box it is shown in, at the screen's density. */
export function thumbnailUrl(bucket: string, key: string, cssW: number, cssH: number, dpr: number): string {
  return objectUrl(bucket, key, pixelBox(cssW, cssH, Math.min(4, dpr || 1)));
}

/** Value equality for detecting "still what we wrote" (json compared structurally). */
export function sameValue(a: RecordValue | undefined, b: RecordValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a === "object" || typeof b === "object") return JSON.stringify(a) === JSON.stringify(b);
  return false;
}

