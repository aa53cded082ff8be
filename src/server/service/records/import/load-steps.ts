/**
 * Steps the import's paths share (csv-import.ts: a new Table, or an existing one in place;
 * rebuild.ts: an existing one rebuilt): keeping the last line of each key a file repeats,
 * reading which keys were added, which Records really change, and their before-images' columns.
 */
import { CompiledQuery, type RawBuilder, sql } from "kysely";
import type { SqlEngine, SqlTx } from "../../engines/engine";
import type { StoredTable, TableDef } from "../registry";
import type { ImportProgress } from "./csv-import";

/**
 * Many keys repeating: left to the staging path, which numbers every line anyway (keeping the
 * last lines here reads the whole file once more, and holds the repeated keys in memory).
 */
export const MAX_REPEATED_KEYS = 100_000;

/**
 * A load table whose keys repeat keeps only the last line of each repeated key, as the staging
 * path would (at a fraction of its memory and time: a 10,000,000-line file with one key
 * repeated took 91 s and 1 GB there). The keys are sorted to find those that repeat (a sort
 * spills within the memory limit; ~1.5 s at 10,000,000 rows); their lines are dropped and the last
 * of each read from the file again, numbered in file order. Returns the rows the load table
 * holds then (`loaded` when no key repeats), or undefined, nothing changed, when too many repeat.
 */
export async function keepLastLines(engine: SqlEngine, tx: SqlTx, load: string, loaded: number, file: string, def: Pick<TableDef, "primaryKey" | "fields">, names: string[],
  report: (p: ImportProgress) => void,
): Promise<number | undefined> {
  const b = engine.builder;
  const csvLoad = engine.dialect.csvLoad!;
  const pk = def.primaryKey;
  const repeats = `${load}_repeats`;
  const sorted = b.selectFrom(load).select([sql.ref(pk).as("k"), sql`lag(${sql.ref(pk)}) over (order by ${sql.ref(pk)})`.as("previous")]);
  await tx.run(b.schema.createTable(repeats).as(b.selectFrom(sorted.as("s")).select("k").distinct().whereRef("k", "=", "previous")).compile(), undefined, { frugal: true });
  const [[count]] = (await tx.run(b.selectFrom(repeats).select(sql`count(*)`.as("n")).compile())).rows;
  let rows: number | undefined = loaded;
  if (Number(count) > MAX_REPEATED_KEYS) rows = undefined;
  else if (Number(count) > 0) {
    rows -= (await tx.run(b.deleteFrom(load).where(sql.ref(pk), "in", b.selectFrom(repeats).select("k")).compile())).changes;
    const types = names.map((n) => def.fields.find((f) => f.key === n)!.type);
    rows += (await tx.run(CompiledQuery.raw(csvLoad.lastLinesSql(load, file, names, types, pk, repeats)), (fraction) => report({ phase: "loading", fraction }), { frugal: true })).changes;
  }
  await tx.run(b.schema.dropTable(repeats).compile());
  return rows;
}

/** At most `limit` keys a query selects (as `k`), for the trail: which Records an import added. */
export async function keysOf(tx: SqlTx, query: { limit(n: number): { compile(): CompiledQuery } }, limit: number): Promise<unknown[]> {
  return (await tx.run(query.limit(limit).compile(), undefined, { unordered: true })).rows.map((r) => r[0]);
}

/**
 * Whether a Record the file names differs from it in any of `fields` (`a` the Table's alias, `b`
 * the file's): the Records an import really changes, whose before-images the trail keeps first
 * (an import that names 200,000 Records and changes 173 of them should keep those 173).
 */
export function differs(fields: string[], a: string, b: string): RawBuilder<boolean> {
  if (fields.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(${sql.join(fields.map((f) => sql`${sql.ref(`${a}.${f}`)} is distinct from ${sql.ref(`${b}.${f}`)}`), sql` or `)})`;
}

/**
 * The columns of an import's before-images, as the trail reads them (record-changes.ts,
 * `packImported`): the key, the file's other Fields as the Table has them (alias `t`), then as
 * the file sets them (alias `s`); json Fields as JSON.
 */
export function importImageColumns(table: StoredTable, others: string[]): { ref: RawBuilder<unknown>; json: boolean }[] {
  const json = (n: string) => table.byKey.get(n)!.type === "json";
  const pk = table.primaryKey;
  return [{ ref: sql.ref(`t.${pk}`), json: json(pk) }, ...others.map((n) => ({ ref: sql.ref(`t.${n}`), json: json(n) })), ...others.map((n) => ({ ref: sql.ref(`s.${n}`), json: json(n) }))];
}
