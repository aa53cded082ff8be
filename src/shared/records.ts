/**
 * Record contract shared by the service, the proxy and the web app: field types (decisions §3),
 * query and update bodies (interface §4.1, §4.2), and the meta/fields extensions.
 */
import type { FilterGroup } from "./filter";

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

export const QUERY_LIMIT_DEFAULT = 100;
export const QUERY_LIMIT_MAX = 10_000;

/** GET /v0/record/{db}/{table}/fields (extension). */
export interface FieldsResponse {
  items: FieldInfo[];
}
