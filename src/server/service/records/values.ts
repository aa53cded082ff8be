/**
 * Field values between JSON and storage (decisions §3, §5): exact type checks for writes,
 * encoding for the store (booleans as booleans, json as text, datetimes normalized to UTC so that
 * text order is time order) and decoding back to JSON values.
 */
import { type Result, fail, ok } from "../../../shared/errors";
import type { FieldType, RecordValue } from "../../../shared/records";
import { parseObjectKey } from "../../../shared/storage";
import type { FieldDef } from "./registry";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const NUMERIC = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?\s*$/i;
/** json values deeper than this are refused (and never walked recursively). */
export const MAX_JSON_DEPTH = 64;

export function isValidDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  d.setUTCFullYear(+m[1], +m[2] - 1, +m[3]);
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** ISO 8601 with a zone → canonical UTC form (`2024-05-01T10:00:00.000Z`), or undefined. */
export function normalizeDatetime(s: string): string | undefined {
  if (!DATETIME.test(s) || !isValidDate(s.slice(0, 10))) return undefined;
  const t = Date.parse(s);
  if (!Number.isFinite(t)) return undefined;
  // An offset can carry 9999-12-31 into year 10000 (or 0000-01-01 into year -1), whose
  // "+010000-…"/"-000001-…" forms would break text order = time order: refused.
  const iso = new Date(t).toISOString();
  return /^\d{4}-/.test(iso) ? iso : undefined;
}

export function parseNumeric(v: string | number): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (!NUMERIC.test(v)) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Depth of a JSON value, measured with an explicit stack (the value came from JSON.parse). */
export function jsonDepth(value: unknown, stopAt = MAX_JSON_DEPTH + 1): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (d + 1 > max) max = d + 1;
    if (max >= stopAt) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

const typeNames: Record<FieldType, string> = {
  text: "a string",
  number: "a JSON number",
  boolean: "true or false",
  date: 'a date string "YYYY-MM-DD"',
  datetime: 'an ISO 8601 date-time string with a zone, e.g. "2024-05-01T10:00:00Z"',
  json: "any JSON value",
  image: "an object key string",
  attachment: "an object key string",
};

export function describeType(type: FieldType): string {
  return typeNames[type];
}

/** A short rendering of a client's value; objects are not stringified (they may be very deep). */
function show(v: unknown): string {
  if (Array.isArray(v)) return "an array";
  // JSON.parse reads 1e400 as Infinity, which JSON.stringify would print as null.
  if (typeof v === "number" && !Number.isFinite(v)) return "a number too large for a double";
  if (typeof v === "object" && v !== null) return "an object";
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/**
 * Checks a value written by an update: exactly the Field's type (a number Field takes a JSON
 * number, not "42"), null only where nullable. Returns the encoded value for the store.
 */
export function encodeWrite(field: FieldDef, value: unknown, where: string, primaryKey = false): Result<unknown> {
  const bad = () =>
    fail("validation_error", `${where}: Field "${field.key}" is ${field.type} and takes ${typeNames[field.type]}, not ${show(value)}.`);
  if (value === undefined) return fail("validation_error", `${where}: "value" is missing (send null to clear a nullable Field).`);
  if (value === null) {
    return field.nullable ? ok(null) : fail("validation_error", `${where}: Field "${field.key}" cannot be null.`);
  }
  switch (field.type) {
    case "text":
      if (typeof value !== "string") return bad();
      // PostgreSQL text cannot hold U+0000; refused on every engine so both keep the same data.
      if (value.includes("\u0000")) return fail("validation_error", `${where}: the text for "${field.key}" contains the NUL character (U+0000), which text cannot hold; remove it.`);
      // A primary key identifies its Record: null is refused above, and so is "".
      if (primaryKey && value === "") return fail("validation_error", `${where}: Field "${field.key}" is the primary key and cannot be empty.`);
      return ok(value);
    case "image":
    case "attachment": {
      if (typeof value !== "string") return bad();
      // The value names an object in the Field's bucket (decisions §3, §7), versioned or not.
      const key = parseObjectKey(value);
      return key.ok ? ok(value) : fail("validation_error", `${where}: Field "${field.key}" takes an object key: ${key.error.message}`);
    }
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? ok(value) : bad();
    case "boolean":
      return typeof value === "boolean" ? ok(value) : bad();
    case "date":
      return typeof value === "string" && isValidDate(value) ? ok(value) : bad();
    case "datetime": {
      const n = typeof value === "string" ? normalizeDatetime(value) : undefined;
      return n ? ok(n) : bad();
    }
    case "json":
      if (jsonDepth(value) > MAX_JSON_DEPTH) {
        return fail("validation_error", `${where}: the json value of "${field.key}" is nested more than ${MAX_JSON_DEPTH} levels deep.`);
      }
      return ok(JSON.stringify(value));
  }
}

/** Encodes a seed or generated value (already of the right type) for the store. */
export function encodeTrusted(type: FieldType, value: RecordValue): unknown {
  if (value === null) return null;
  if (type === "boolean") return value === true;
  if (type === "json") return JSON.stringify(value);
  if (type === "datetime") return normalizeDatetime(String(value)) ?? value;
  return value;
}

export function decode(type: FieldType, raw: unknown): RecordValue {
  if (raw === null || raw === undefined) return null;
  if (type === "boolean") return raw === 1 || raw === 1n || raw === true;
  if (type === "json") return JSON.parse(raw as string) as RecordValue;
  return raw as RecordValue;
}
