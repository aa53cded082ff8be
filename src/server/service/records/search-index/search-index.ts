/**
 * Trigram indexes for `contains` on PostgreSQL (issue 21 item 4): `contains`, `notContains`
 * and `startsWith` on a text Field are a LIKE over its folded text, which a pg_trgm index on
 * that expression serves (10,000,000 rows: a scan of seconds becomes an index probe). Offered,
 * not automatic: each index costs minutes to build and slows writes to its Field, so they are
 * made for the Fields people search (`npm run search-index`). DuckDB scans its compressed
 * columns instead and needs none.
 */
import { type Result, fail, ok } from "../../../../shared/errors";
import { kindOf, stateFailure } from "../../engines/failures";
import type { RecordStore } from "../store";

export interface SearchIndexOutcome {
  /** Indexes made (or already there), by Field. */
  indexed: string[];
}

/** Index name per Table and Field: found again by `create index if not exists`. */
export const searchIndexName = (physical: string, field: string) => `bb_trgm_${physical}_${field}`;

export async function createSearchIndexes(store: RecordStore, databaseId: string, slug: string, fields: string[]): Promise<Result<SearchIndexOutcome>> {
  const engine = store.engine;
  const table = await store.table(databaseId, slug);
  if (!table) return fail("not_found", `There is no Table ${databaseId}/${slug}.`);
  if (!engine.dialect.searchIndex) {
    return fail("validation_error", `The ${engine.dialect.name} engine answers contains by scanning its columns and has no search index; nothing to do.`);
  }
  if (fields.length === 0) return fail("validation_error", `Name the text Fields to index (Fields of ${databaseId}/${slug}: ${table.fields.map((f) => f.key).join(", ")}).`);
  for (const key of fields) {
    const f = table.byKey.get(key);
    if (!f) return fail("validation_error", `"${key}" is not a Field of ${databaseId}/${slug} (Fields: ${table.fields.map((x) => x.key).join(", ")}).`);
    if (f.type !== "text") return fail("validation_error", `"${key}" is ${f.type}; a search index is for text Fields.`);
  }
  const searchIndex = engine.dialect.searchIndex;
  try {
    for (const key of fields) {
      await engine.write(async (tx) => {
        for (const statement of searchIndex(table.physical, key, searchIndexName(table.physical, key))) await tx.run(statement.compile(engine.builder));
      });
    }
  } catch (e) {
    const state = stateFailure(kindOf(engine.dialect, e), engine.dialect);
    if (state) return state;
    const message = String((e as Error).message ?? e).split("\n")[0];
    // Most often: pg_trgm is not installed on the server, or this role may not create it.
    return fail("unavailable", `Could not create the search index (${message}). pg_trgm must be available to the database (CREATE EXTENSION pg_trgm, by its owner); contains still works, by a scan.`);
  }
  return ok({ indexed: fields });
}
