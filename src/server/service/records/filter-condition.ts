/**
 * One filter condition → SQL (decisions §4). The operator is checked against the Field's type
 * and the value coerced before any SQL is built; every value is a bound parameter.
 *
 * Semantics chosen where decisions §4 is silent: notEqual and notContains are the exact
 * complements of equal and contains (so they match null Fields); ordering operators never
 * match null; isEmpty means null, or the empty string on text-like Fields.
 */
import { type RawBuilder, sql } from "kysely";
import { type Result, fail, ok } from "../../../shared/errors";
import type { FilterValue, Operator } from "../../../shared/filter";
import { operatorProblem, operatorsByType } from "../../../shared/operators";
import type { FieldType } from "../../../shared/records";
import { textProblem } from "../../../shared/values";
import type { Dialect } from "../engines/engine";
import type { FieldDef } from "./registry";
import { describeType, isValidDate, normalizeDatetime, parseNumeric } from "./values";


export interface ResolvedField {
  /** The column expression, e.g. "t0"."age". */
  ref: RawBuilder<unknown>;
  field: FieldDef;
  /** The name the client used, for messages. */
  name: string;
  /** The column is never null here (a NOT NULL column of the queried table, not a joined one). */
  neverNull?: boolean;
}

export interface ConditionInput {
  operator: Operator;
  value: FilterValue | undefined;
  path: string;
}

type Kind = "textual" | "number" | "boolean" | "json";
const kindOf: Record<FieldType, Kind> = {
  text: "textual",
  image: "textual",
  attachment: "textual",
  date: "textual",
  datetime: "textual",
  number: "number",
  boolean: "boolean",
  json: "json",
};

/** The table lives in src/shared (one for the service and the app); re-exported for the tests. */
export { operatorsByType };

const ordering: Partial<Record<Operator, string>> = {
  greaterThan: ">",
  greaterThanOrEqual: ">=",
  lessThan: "<",
  lessThanOrEqual: "<=",
};

/** JSON.parse reads 1e400 as Infinity, which JSON.stringify would print as null. */
const showValue = (v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? "a number too large for a double" : JSON.stringify(v));

/** Coerces a comparison value to what the column holds, or explains what is expected. */
function coerce(f: ResolvedField, c: ConditionInput, dialect: Dialect): Result<unknown> {
  const v = c.value;
  const type = f.field.type;
  const bad = (expected: string) =>
    fail("validation_error", `${c.path}: Field "${f.name}" is ${type}; ${c.operator} needs ${expected}, not ${showValue(v)}.`);
  switch (type) {
    case "number": {
      const n = typeof v === "number" || typeof v === "string" ? parseNumeric(v) : undefined;
      return n === undefined ? bad("a number or a numeric string") : ok(n);
    }
    case "boolean":
      if (typeof v === "boolean") return ok(dialect.bool(v));
      if (v === "true" || v === "false") return ok(dialect.bool(v === "true"));
      return bad("true or false");
    case "date":
      if (c.operator in ordering || c.operator === "equal" || c.operator === "notEqual") {
        return typeof v === "string" && isValidDate(v) ? ok(v) : bad(describeType("date"));
      }
      return typeof v === "string" ? ok(v) : bad("a string");
    case "datetime": {
      if (c.operator in ordering || c.operator === "equal" || c.operator === "notEqual") {
        const n = typeof v === "string" ? normalizeDatetime(v) : undefined;
        return n ? ok(n) : bad(describeType("datetime"));
      }
      return typeof v === "string" ? ok(v) : bad("a string");
    }
    case "json":
      return bad("null (json Fields can only be tested for being empty)");
    default:
      return typeof v === "string" ? ok(v) : bad("a string");
  }
}

export interface ConditionSql {
  sql: RawBuilder<unknown>;
  /** The values it binds, in order (the plan cache rebinds them without rebuilding SQL). */
  params: unknown[];
  /** Height of the expression tree SQLite builds for it (for the depth limit). */
  height: number;
}

export function conditionSql(f: ResolvedField, c: ConditionInput, dialect: Dialect): Result<ConditionSql> {
  const type = f.field.type;
  const refused = operatorProblem(c.path, { key: f.name, type }, c.operator);
  if (refused) return fail("validation_error", refused);
  // No stored text holds these (textProblem), so none can contain or equal one: refused as a 400
  // rather than answered differently by each engine.
  const bad = typeof c.value === "string" ? textProblem(c.value) : undefined;
  if (bad === "nul") return fail("validation_error", `${c.path}: the value contains the NUL character (U+0000), which text cannot hold; remove it.`);
  if (bad === "surrogate") return fail("validation_error", `${c.path}: the value contains half of a surrogate pair alone (such as \\ud83d), which no stored text holds; send the whole character.`);
  const col = f.ref;
  const textual = kindOf[type] === "textual";
  switch (c.operator) {
    case "isEmpty":
      return ok(textual ? { sql: sql`(${col} is null or ${col} = '')`, params: [], height: 3 } : { sql: sql`${col} is null`, params: [], height: 2 });
    case "isNotEmpty":
      return ok(textual ? { sql: sql`(${col} is not null and ${col} <> '')`, params: [], height: 3 } : { sql: sql`${col} is not null`, params: [], height: 2 });
  }
  if (c.value === undefined) {
    return fail("validation_error", `${c.path}: operator ${c.operator} needs a "value".`);
  }
  if (c.value === null) {
    if (c.operator === "equal") return ok({ sql: sql`${col} is null`, params: [], height: 2 });
    if (c.operator === "notEqual") return ok({ sql: sql`${col} is not null`, params: [], height: 2 });
    return fail("validation_error", `${c.path}: operator ${c.operator} cannot compare with null; use isEmpty or equal null.`);
  }
  if (c.operator === "contains" || c.operator === "notContains" || c.operator === "startsWith") {
    if (typeof c.value !== "string") {
      return fail("validation_error", `${c.path}: operator ${c.operator} needs a string value, not ${JSON.stringify(c.value)}.`);
    }
    // The engine folds both sides with the same Unicode lower-casing.
    const needle = c.value;
    if (c.operator === "startsWith") return ok({ sql: dialect.foldedMatch(col, needle, "startsWith"), params: [needle], height: 3 });
    const found = dialect.foldedMatch(col, needle, "contains");
    if (c.operator === "contains") return ok({ sql: found, params: [needle], height: 3 });
    return ok({ sql: sql`(${col} is null or not ${found})`, params: [needle], height: 4 });
  }
  const coerced = coerce(f, c, dialect);
  if (!coerced.ok) return coerced;
  const value = coerced.value;
  if (c.operator === "equal") return ok({ sql: sql`${col} = ${value}`, params: [value], height: 2 });
  if (c.operator === "notEqual") {
    if (f.neverNull && dialect.notEqualByRange) return ok({ sql: sql`(${col} < ${value} or ${col} > ${value})`, params: [value, value], height: 3 });
    return ok({ sql: sql`(${col} is null or ${col} <> ${value})`, params: [value], height: 3 });
  }
  const op = ordering[c.operator];
  if (!op) return fail("validation_error", `${c.path}: unknown operator ${c.operator}.`);
  return ok({ sql: sql`${col} ${sql.raw(op)} ${value}`, params: [value], height: 2 });
}
