/**
 * Query keys of the records capability, in one place (style.md: no literal key arrays in
 * components). Every variable a fetch uses is in its key; the shorter keys are prefixes for
 * invalidating everything of one table at once.
 */
import type { FilterGroup } from "../../shared/filter";
import type { JoinUnit, QueryBody } from "../../shared/records";

export const recordKeys = {
  config: () => ["config"] as const,
  /** Prefix of every records query (pages, Records, suggestions) of every table. */
  all: () => ["records"] as const,
  fields: (db: string, table: string) => ["fields", db, table] as const,
  /** One unselected Record, to learn every Field where the fields endpoint is missing. */
  fieldsProbe: (db: string, table: string) => ["fields", db, table, "probe"] as const,
  /** Prefix of every page of one table. */
  table: (db: string, table: string) => ["records", db, table] as const,
  page: (db: string, table: string, body: QueryBody) => ["records", db, table, body] as const,
  /** Prefix of every count of one table. */
  tableCounts: (db: string, table: string) => ["count", db, table] as const,
  count: (db: string, table: string, filter: FilterGroup | undefined) => ["count", db, table, filter ?? null] as const,
  /** Value suggestions for one Field (the distinct extension); under `table`, refreshed with it. */
  distinct: (db: string, table: string, key: string, prefix: string) => ["records", db, table, "distinct", key, prefix] as const,
  /** One Record by primary key; under `table`, so whatever refreshes the table refreshes it. */
  record: (db: string, table: string, pkField: string, pk: string | number, join: JoinUnit | undefined) =>
    ["records", db, table, "record", pkField, pk, join ?? null] as const,
};
