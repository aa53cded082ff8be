/**
 * Record contract shared by the service, the proxy and the web app: field types (decisions §3),
 * query and update bodies (interface §4.1, §4.2), and the meta/fields extensions.
 */
import { z } from "zod";
import { type FilterGroup, quoteName } from "./filter";

export const fieldTypes = [
  "text",
  "number",
  "boolean",
  "date",
  "datetime",
  "json",
  "image",
  "attachment",
] as const;
export type FieldType = (typeof fieldTypes)[number];

/**
 * Why two Fields cannot be a join rule's pair, or undefined: the service refuses such a rule,
 * and the app offers only pairs that pass. A rule matches equal values, and values of different
 * types are never equal: the engines differed instead (DuckDB cast text to a number until a row
 * held "n/a", PostgreSQL refused), both as a 500 (review 33a #1). Text, image and attachment
 * Fields all hold text.
 */
export function joinKeyProblem(a: FieldType, b: FieldType): string | undefined {
  if (a === "json" || b === "json") return "cannot be joined: a json Field is no join key. Join on a Field of another type.";
  const kind = (t: FieldType) => (t === "image" || t === "attachment" ? "text" : t);
  return kind(a) === kind(b) ? undefined : "are of different types, so no value of one equals a value of the other. Join Fields of the same type.";
}

export interface FieldInfo {
  key: string;
  type: FieldType;
  nullable: boolean;
  primaryKey: boolean;
  /** For image and attachment fields: the bucket the object key lives in. */
  bucket?: string;
}

export type RecordValue = string | number | boolean | null | Record<string, unknown> | unknown[];
export type RecordRow = Record<string, RecordValue>;

export interface SortUnit {
  key: string;
  direction: "ascending" | "descending";
}

export interface JoinRule {
  tableKey: string;
  targetTableKey: string;
}

export interface JoinUnit {
  targetTable: string;
  rules: JoinRule[];
}

export interface QueryBody {
  select?: string[];
  join?: JoinUnit[];
  filter?: FilterGroup;
  sort?: SortUnit[];
  limit?: number;
  skip?: number;
  /** Spelled exactly so by the interface. */
  addtionalFilter?: FilterGroup;
  additionalSort?: SortUnit[];
}

export interface QueryResult {
  items: RecordRow[];
  count: number;
}

export interface UpdateBody {
  fixedValue?: unknown[];
  values: { key: string; value: RecordValue }[];
  filter: FilterGroup;
}

/**
 * A Record's primary key as text, the one way app and server name a Record: a text key as it
 * is, any other (a number) as its JSON. Used for history look-ups, live events and grid rows.
 */
export const recordKeyText = (key: unknown): string => (typeof key === "string" ? key : JSON.stringify(key));

export const QUERY_LIMIT_DEFAULT = 100;
export const QUERY_LIMIT_MAX = 10_000;

/** GET /v0/record/{db}/{table}/fields (extension). */
export interface FieldsResponse {
  items: FieldInfo[];
}

/*
 * Request-body schemas, checked at the service's boundary (and usable by the web app).
 * Filters are z.unknown() here on purpose: their nesting is unlimited, so they are parsed by
 * the iterative parseFilter (filter-parse.ts), never by a recursive schema.
 */
const limitMessage = `limit must be an integer from 0 to ${QUERY_LIMIT_MAX.toLocaleString("en-US")}`;

export const sortUnitSchema = z.strictObject({
  key: z.string().min(1, "a sort key must be a non-empty Field name"),
  direction: z.enum(["ascending", "descending"], 'direction must be "ascending" or "descending"').default("ascending"),
});

export const joinUnitSchema = z.strictObject({
  targetTable: z.string().min(1, "targetTable must be a non-empty table slug"),
  rules: z
    .array(z.strictObject({ tableKey: z.string().min(1), targetTableKey: z.string().min(1) }))
    .min(1, "a join needs at least one rule {tableKey, targetTableKey}"),
});

export const queryBodySchema = z.strictObject({
  select: z.array(z.string().min(1, "a select entry must be a non-empty Field name")).optional(),
  join: z.array(joinUnitSchema).optional(),
  filter: z.unknown().optional(),
  sort: z.array(sortUnitSchema).optional(),
  limit: z.number(limitMessage).int(limitMessage).min(0, limitMessage).max(QUERY_LIMIT_MAX, limitMessage).optional(),
  skip: z
    .number("skip must be a non-negative integer")
    .int("skip must be a non-negative integer")
    .min(0, "skip must be a non-negative integer")
    .max(Number.MAX_SAFE_INTEGER, "skip is too large")
    .optional(),
  addtionalFilter: z.unknown().optional(),
  additionalSort: z.array(sortUnitSchema).optional(),
});
export type QueryBodyInput = z.infer<typeof queryBodySchema>;

export const updateBodySchema = z.strictObject({
  fixedValue: z
    .array(z.unknown(), "fixedValue must be an array")
    .max(0, "fixedValue must be empty: its element shape is not defined by the interface")
    .optional(),
  values: z
    .array(z.strictObject({ key: z.string().min(1, "a value key must be a non-empty Field name"), value: z.unknown().optional() }), "values must be an array of {key, value}")
    .min(1, "values must name at least one Field to change"),
  /** Required, but checked by the service so that its message can say how to update everything. */
  filter: z.unknown().optional(),
});
export type UpdateBodyInput = z.infer<typeof updateBodySchema>;

/** One readable sentence from a zod error, naming the property path. */
export function describeSchemaError(error: z.ZodError, bodyName: string): string {
  // An unknown property usually explains the other issues (e.g. "value" sent for "values").
  const issue = error.issues.find((i) => i.code === "unrecognized_keys") ?? error.issues[0];
  if (!issue) return `${bodyName} is invalid.`;
  const path = issue.path.reduce<string>(
    (acc, seg) => (typeof seg === "number" ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)),
    "",
  );
  if (issue.code === "unrecognized_keys") {
    const where = path ? `in ${path}` : `in the ${bodyName}`;
    // The interface spells the second filter "addtionalFilter"; the natural spelling is a likely slip.
    const hint = issue.keys.includes("additionalFilter") ? ' The second filter is spelled "addtionalFilter" (sic), as in the interface.' : "";
    return `Unknown property ${issue.keys.map((k) => quoteName(k)).join(", ")} ${where}.${hint}`;
  }
  // A message that already names its property is not prefixed with it again (review 38a #8:
  // "expectedCount: expectedCount must be …").
  if (path && issue.message.startsWith(`${path} `)) return `${issue.message}.`;
  return path ? `${path}: ${issue.message}.` : `The ${bodyName} must be a JSON object (${issue.message}).`;
}
