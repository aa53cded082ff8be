/**
 * The distinct-values extension (issue 24 item 6): the most frequent non-null values of one
 * Field, optionally starting with a prefix (case-folded as the `startsWith` operator is), at most
 * DISTINCT_MAX, for the filter builder's suggestions. json Fields have no suggestions.
 */
import { sql } from "kysely";
import { type Result, fail, ok } from "../../../shared/errors";
import { quoteName } from "../../../shared/filter";
import { type DistinctBody, type DistinctResponse } from "../../../shared/record-writes";
import { kindOf, stateFailure } from "../engines/failures";
import type { StoredTable } from "./registry";
import type { RecordStore } from "./store";
import { decode } from "./values";

export async function distinctValues(store: RecordStore, table: StoredTable, body: DistinctBody): Promise<Result<DistinctResponse>> {
  const field = table.byKey.get(body.key);
  if (!field) return fail("validation_error", `key: unknown Field ${quoteName(body.key)} in table ${table.databaseId}/${table.slug}.`);
  if (field.type === "json") return fail("validation_error", `key: Field ${quoteName(body.key)} is json; it has no value suggestions.`);
  const { builder, dialect } = store.engine;
  const col = sql.ref(field.key);
  let q = builder
    .selectFrom(table.physical)
    .select([col.as("v"), sql<number>`count(*)`.as("n")])
    .where(col, "is not", null)
    .groupBy(col)
    // By position: a name in ORDER BY is the output's first, so a Field named "n" or "v" was
    // ordered by the count alias, and ties came in each engine's own order (review 53a #5).
    .orderBy(sql.raw("2"), "desc")
    .orderBy(sql.raw("1"))
    .limit(body.limit ?? 20);
  // A number or boolean is matched as its text ("3" finds 30 and 3.5): lower() of a number was a 500.
  const text = field.type === "number" || field.type === "boolean" ? sql`cast(${col} as varchar)` : sql`${col}`;
  if (body.prefix) q = q.where(dialect.foldedMatch(text, body.prefix, "startsWith"));
  try {
    const [res] = await store.engine.read([q.compile()]);
    return ok({ items: res.rows.map((r) => ({ value: decode(field.type, r[0]) as string | number | boolean, count: Number(r[1]) })) });
  } catch (e) {
    const state = stateFailure(kindOf(dialect, e));
    if (state) return state;
    throw e;
  }
}
