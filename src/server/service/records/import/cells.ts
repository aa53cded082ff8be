/**
 * CSV cells → Field values (pure). An empty cell is null. Types are inferred from the values
 * of a new Table: number, boolean, date, datetime, else text (decisions §9, issue 10 item 5).
 */
import { type Result, fail, ok } from "../../../../shared/errors";
import type { FieldType } from "../../../../shared/records";
import { parseObjectKey } from "../../../../shared/storage";
import type { FieldDef } from "../registry";
import { parseNumberText, roundedNumberIn, textProblem } from "../../../../shared/values";
import { encodeWrite, isValidDate, normalizeDatetime, parseNumeric } from "../values";

const BOOLEAN = /^(true|false)$/i;

/** What a CSV cell of each type must look like (no JSON here: cells are text). */
const expected: Record<FieldType, string> = {
  text: "text",
  number: "a number written out, such as 42 or -4.25",
  boolean: "true or false",
  date: "a date YYYY-MM-DD",
  datetime: "an ISO 8601 date-time with a zone, e.g. 2024-05-01T10:00:00Z",
  json: "a JSON value",
  image: "an object key",
  attachment: "an object key",
};
const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** Candidate types of a column, narrowed by every non-empty cell (most specific first). */
export type Candidates = { number: boolean; boolean: boolean; date: boolean; datetime: boolean };

export const allCandidates = (): Candidates => ({ number: true, boolean: true, date: true, datetime: true });

/**
 * A zero before another digit (`0010`, `-05`): a code (a postcode, an id), not a number, whose
 * zeros a number column would drop (review 56a #6: `0010` became 10). Keeps a new column text.
 */
export const LEADING_ZERO = /^\s*[-+]?0\d/;

export function narrow(c: Candidates, cell: string): void {
  if (c.number && (LEADING_ZERO.test(cell) || parseNumeric(cell) === undefined || !parseNumberText(cell).ok)) c.number = false;
  if (c.boolean && !BOOLEAN.test(cell)) c.boolean = false;
  if (c.date && !(DATE_SHAPE.test(cell) && isValidDate(cell))) c.date = false;
  if (c.datetime && normalizeDatetime(cell) === undefined) c.datetime = false;
}

/** The inferred type; a column with no value at all is text. */
export function inferred(c: Candidates, sawValue: boolean): FieldType {
  if (!sawValue) return "text";
  if (c.number) return "number";
  if (c.boolean) return "boolean";
  if (c.date) return "date";
  if (c.datetime) return "datetime";
  return "text";
}

/** Why a cell with U+0000 is refused, whatever its Field's type (known, or still being inferred). */
export const nulInCell = (key: string) => `"${key}" contains the NUL character (U+0000), which text cannot hold; remove it.`;

/** One cell → the value stored for the Field, or why not (without the line: the caller adds it). */
export function cellValue(field: FieldDef, cell: string, primaryKey: boolean): Result<unknown> {
  if (cell === "") {
    if (primaryKey) return fail("validation_error", `"${field.key}" is the primary key and cannot be empty.`);
    return field.nullable ? ok(null) : fail("validation_error", `"${field.key}" cannot be empty.`);
  }
  // Refused as an update's value is (a cell comes from UTF-8 bytes: it holds no lone surrogate half).
  if (textProblem(cell) === "nul") return fail("validation_error", nulInCell(field.key));
  const bad = () => fail("validation_error", `"${field.key}" is ${field.type} and takes ${expected[field.type]}, not ${JSON.stringify(cell.length > 60 ? `${cell.slice(0, 57)}...` : cell)}.`);
  switch (field.type) {
    case "number": {
      // Text read as the editor reads it: 1e3, -0 and digits a double drops are refused, never rounded.
      const n = parseNumeric(cell);
      if (n === undefined) return bad();
      const exact = parseNumberText(cell);
      return exact.ok ? ok(exact.value) : fail("validation_error", `"${field.key}": ${exact.error.message}`);
    }
    case "boolean":
      return BOOLEAN.test(cell) ? ok(cell.toLowerCase() === "true") : bad();
    case "date":
      if (!DATE_SHAPE.test(cell)) return bad();
      // Written right, but no such day: said so (a "YYYY-MM-DD" reminder read as a format problem).
      return isValidDate(cell) ? ok(cell) : fail("validation_error", `"${field.key}" is date, and ${JSON.stringify(cell)} is no day of the calendar (the month has fewer days, or there is no such month).`);
    case "datetime": {
      const n = normalizeDatetime(cell);
      return n ? ok(n) : bad();
    }
    case "json": {
      let v: unknown;
      try {
        v = JSON.parse(cell);
      } catch {
        return bad();
      }
      // The same rules as an update's json value (review 31a #3): numbers exact, text whole,
      // depth bounded; said in the same words (encodeWrite).
      const rounded = roundedNumberIn(cell);
      if (rounded) return fail("validation_error", `"${field.key}": the number ${rounded.written} in the json value would be read as ${rounded.stored}; it is refused rather than rounded.`);
      return encodeWrite(field, v, "this cell");
    }
    case "image":
    case "attachment": {
      const key = parseObjectKey(cell);
      return key.ok ? ok(cell) : fail("validation_error", `"${field.key}" takes an object key: ${key.error.message}`);
    }
    default:
      return ok(cell);
  }
}
