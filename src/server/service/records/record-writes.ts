/**
 * Insert and delete (issue 24 items 1–2, extensions of the local service), beside the store's
 * update rather than inside it: both check everything first and run in one write transaction,
 * so a request writes all of what it asks or nothing.
 *
 * - insert: at most INSERT_MAX Records; every value checked as an update's (encodeWrite); a
 *   Field left out is null (refused where the Field is not nullable); a primary key that exists,
 *   or appears twice in the batch, is 409 `conflict` naming it.
 * - delete: removes what the filter matches only when that is exactly `expectedCount`, so a
 *   delete never removes more (or other) Records than the user confirmed.
 */
import { sql } from "kysely";
import { type Result, fail, ok } from "../../../shared/errors";
import { quoteName } from "../../../shared/filter";
import { kindOf, stateFailure } from "../engines/failures";
import { compileFilters, parseFilters, Scope } from "./query-plan";
import type { StoredTable } from "./registry";
import type { RecordStore } from "./store";
import { decode, encodeWrite } from "./values";
import { type BeforeImages, INSERT_MAX_RECORDS as INSERT_MAX } from "../../../shared/record-writes";


/** Thrown inside the write transaction to roll it back with a client-facing failure. */
class Refused extends Error {
  constructor(readonly result: Result<never>) {
    super("refused");
  }
}

function engineFailure(store: RecordStore, e: unknown, table: StoredTable): Result<never> {
  if (e instanceof Refused) return e.result;
  const kind = kindOf(store.engine.dialect, e);
  if (kind === "unique") return fail("conflict", `A Record with one of these primary keys (${quoteName(table.primaryKey)}) already exists; nothing was inserted.`);
  if (kind === "notNull") return fail("validation_error", "A Field that cannot be null would be null; nothing was written.");
  if (kind === "tooComplex") return fail("validation_error", "The filter is nested too deeply or has too many conditions for the database. Flatten or simplify it.");
  const state = stateFailure(kind);
  if (state) return state;
  throw e;
}

/** Every record checked and encoded in the table's Field order, or the first problem. */
export function encodeRecords(table: StoredTable, records: readonly unknown[]): Result<unknown[][]> {
  const pk = table.primaryKey;
  const seen = new Map<string, number>();
  const rows: unknown[][] = [];
  for (const [i, record] of records.entries()) {
    const where = `records[${i}]`;
    if (typeof record !== "object" || record === null || Array.isArray(record)) {
      return fail("validation_error", `${where} must be an object of Field keys and values, e.g. {"${pk}": …}.`);
    }
    const r = record as Record<string, unknown>;
    const unknown = Object.keys(r).find((k) => !table.byKey.has(k));
    if (unknown !== undefined) {
      return fail("validation_error", `${where}: unknown Field ${quoteName(unknown)} in table ${table.databaseId}/${table.slug}. Known Fields: ${table.fields.map((f) => f.key).join(", ")}.`);
    }
    if (!(pk in r)) return fail("validation_error", `${where}: the primary key "${pk}" is missing; every new Record needs one.`);
    if (r[pk] === null) return fail("validation_error", `${where}: the primary key "${pk}" is null; every new Record needs a value for it.`);
    const row: unknown[] = [];
    for (const field of table.fields) {
      const encoded = encodeWrite(field, field.key in r ? r[field.key] : null, `${where}.${field.key}`, field.key === pk);
      if (!encoded.ok) return encoded;
      row.push(encoded.value);
    }
    const id = JSON.stringify(r[pk]);
    const before = seen.get(id);
    if (before !== undefined) return fail("conflict", `${where}: primary key "${pk}" ${id} is given twice (also records[${before}]); nothing was inserted.`);
    seen.set(id, i);
    rows.push(row);
  }
  return ok(rows);
}

export async function insertRecords(store: RecordStore, table: StoredTable, records: readonly unknown[]): Promise<Result<{ count: number }>> {
  if (records.length > INSERT_MAX) {
    return fail("validation_error", `records holds ${records.length.toLocaleString("en-US")} Records; send at most ${INSERT_MAX.toLocaleString("en-US")} per request.`);
  }
  const encoded = encodeRecords(table, records);
  if (!encoded.ok) return encoded;
  const rows = encoded.value;
  if (rows.length === 0) return ok({ count: 0 });
  const pk = table.primaryKey;
  const pkIndex = table.fields.findIndex((f) => f.key === pk);
  const { builder } = store.engine;
  try {
    const count = await store.writing(table, () => store.engine.write(async (tx) => {
      // Checked first, in the same transaction, so the conflict can name the key that exists.
      const keys = rows.map((row) => row[pkIndex]);
      const existing = await tx.run(builder.selectFrom(table.physical).select(sql.ref(pk).as("k")).where(sql.ref(pk), "in", keys).limit(3).compile());
      if (existing.rows.length > 0) {
        const names = existing.rows.map((row) => JSON.stringify(row[0])).join(", ");
        // The Field named as a Field, the keys as values (review 48b #5: `primary key "employee_id" "E00001"` read as two values).
        const one = existing.rows.length === 1;
        throw new Refused(fail("conflict", `${one ? "A Record" : "Records"} with ${pk} ${names.replace(/, ([^,]*)$/, " or $1")} already ${one ? "exists" : "exist"} (${pk} is the primary key, one Record each); nothing was inserted.`));
      }
      async function* one(): AsyncIterable<unknown[][]> {
        yield rows;
      }
      return tx.append(table.physical, table.fields.map((f) => f.key), one());
    }));
    return ok({ count });
  } catch (e) {
    return engineFailure(store, e, table);
  }
}

/**
 * Deletes what `filter` matches when that is exactly `expectedCount`. `images`: how many of the
 * Records removed to answer whole (every Field, read in the delete's own transaction: exactly
 * what went), for the audit trail (capability `deletedImages`).
 */
export async function deleteRecords(store: RecordStore, table: StoredTable, filter: unknown, expectedCount: number, images?: number,
): Promise<Result<{ count: number; before?: BeforeImages }>> {
  if (filter === undefined) return fail("validation_error", 'filter is required: send {"and": []} to delete every Record on purpose.');
  const filters = parseFilters([["filter", filter]]);
  if (!filters.ok) return filters;
  const dialect = store.engine.dialect;
  const where = compileFilters(new Scope(table, false), filters.value, dialect, dialect.maxHeight);
  if (!where.ok) return where;
  const { builder } = store.engine;
  const fields = table.fields.map((f) => f.key);
  let countQ = builder.selectFrom(table.physical).select(sql<number>`count(*)`.as("n"));
  let deleteQ = builder.deleteFrom(table.physical);
  let imagesQ = builder.selectFrom(table.physical).select(fields.map((k) => sql.ref(k).as(k))).limit(images ?? 0);
  if (where.value.where) {
    countQ = countQ.where(where.value.where);
    deleteQ = deleteQ.where(where.value.where);
    imagesQ = imagesQ.where(where.value.where);
  }
  const mismatch = (matched: number, meanwhile = "") =>
    new Refused(fail("conflict", `The filter matches ${matched.toLocaleString("en-US")} Records, not the ${expectedCount.toLocaleString("en-US")} expected${meanwhile}; nothing was deleted.`));
  try {
    const out = await store.writing(table, () => store.engine.write(async (tx) => {
      const matched = Number((await tx.run(countQ.compile())).rows[0]?.[0] ?? 0);
      if (matched !== expectedCount) throw mismatch(matched);
      if (matched === 0) return { count: 0, rows: images ? [] : undefined };
      const rows = images ? (await tx.run(imagesQ.compile(), undefined, { unordered: true })).rows : undefined;
      const count = (await tx.run(deleteQ.compile())).changes;
      // Another client's write between the count and the delete (PostgreSQL reads each statement
      // afresh): never more, or other, Records than confirmed.
      if (count !== expectedCount) throw mismatch(count, " (changed meanwhile)");
      return { count, rows };
    }));
    if (!out.rows) return ok({ count: out.count });
    const types = table.fields.map((f) => f.type);
    return ok({ count: out.count, before: { fields, rows: out.rows.map((row) => types.map((type, i) => decode(type, row[i]))) } });
  } catch (e) {
    return engineFailure(store, e, table);
  }
}
