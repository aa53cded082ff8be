/**
 * Field values between JSON and storage (decisions §3, §5): exact type checks for writes,
 * encoding for the store (booleans as booleans, json as text, datetimes normalized to UTC so that
 * text order is time order) and decoding back to JSON values.
 */
import { type Result, fail, ok } from "../../../shared/errors";
import type { FieldType, RecordValue } from "../../../shared/records";
import { fieldValueProblem, isValidDate, jsonDepth, MAX_JSON_DEPTH, normalizeDatetime } from "../../../shared/values";
import type { FieldDef } from "./registry";

export { isValidDate, jsonDepth, MAX_JSON_DEPTH, normalizeDatetime };

export function parseNumeric(v: string | number): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (!NUMERIC.test(v)) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

const NUMERIC = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?\s*$/i;

const typeNames: Record<FieldType, string> = {
  text: "a string",
  number: "a JSON number",
  boolean: "true or false",
  date: 'a date string "YYYY-MM-DD" (years 0001–9999)',
  datetime: 'an ISO 8601 date-time string with a zone, to the millisecond at most, e.g. "2024-05-01T10:00:00.250Z" (years 0001–9999 in UTC)',
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
  if (value === null && !field.nullable) return fail("validation_error", `${where}: Field "${field.key}" cannot be null.`);
  const problem = fieldValueProblem({ ...field, primaryKey }, value);
  if (problem) {
    switch (problem.kind) {
      case "null":
        return fail("validation_error", `${where}: Field "${field.key}" cannot be null.`);
      case "nul":
        return fail("validation_error", `${where}: the text for "${field.key}" contains the NUL character (U+0000), which text cannot hold; remove it.`);
      case "surrogate":
        return fail("validation_error", `${where}: the text for "${field.key}" contains half of a surrogate pair alone (such as \\ud83d), which is no character; send the whole character or remove it.`);
      case "emptyKey":
        return fail("validation_error", `${where}: Field "${field.key}" is the primary key and cannot be empty.`);
      case "objectKey":
        return fail("validation_error", `${where}: Field "${field.key}" takes an object key: ${problem.detail}`);
      case "number":
        return fail("validation_error", `${where}: the number for "${field.key}" ${problem.detail}; it is refused rather than rounded.`);
      case "depth":
        return fail("validation_error", `${where}: the json value of "${field.key}" is nested more than ${MAX_JSON_DEPTH} levels deep.`);
      case "type":
        return bad();
    }
  }
  if (value === null) return ok(null);
  if (field.type === "datetime") return ok(normalizeDatetime(value as string));
  if (field.type === "json") return ok(JSON.stringify(value));
  return ok(value);
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
