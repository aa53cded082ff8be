/**
 * A large import into an existing Table on DuckDB: the Table is rebuilt beside itself, then
 * swapped in, instead of updated in place.
 *
 * In place, every row of the file goes through the Table's key index inside one transaction
 * (`INSERT … ON CONFLICT`): the index's new keys and the transaction's rows must all be held at
 * once, and 10,000,000 rows into the seeded 1,000-row sample Table ran out of memory at the
 * default 512MB after 83 s, nothing imported (measured). Rebuilt, each step is committed before
 * the next, so its memory is given back, and the key index is built over committed rows on one
 * thread, as for a new Table (csv-import.ts, `loadThenAdopt`):
 *   1. the file goes into an unregistered load table (`LOAD_TABLE_PREFIX`), committed;
 *   2. the Table's Records the file does not name are set aside (`…_kept`, an anti-join), what
 *      the import overwrites and adds is read for the trail (a window of the file at a time),
 *      the Fields the file leaves out are copied from the Table, and the kept Records join the
 *      load table, committed;
 *   3. one transaction drops the Table's own table, renames the load table to it and builds the
 *      key index. A key the file repeats fails that index: nothing is swapped, and the import
 *      starts again keeping the last line of each (load-steps.ts).
 * The writer is held from the first step to the last (`SqlTx.commit`): no other write comes in
 * between, so what is copied is what the Table holds when it is swapped. Until the swap commits
 * the Table is as it was; a failure, or a process stopped in between, leaves only load tables,
 * which are dropped (here, or on the next open): all or nothing.
 */
import { randomUUID } from "node:crypto";
import { CompiledQuery, sql } from "kysely";
import type { SqlTx } from "../../engines/engine";
import { kindOf } from "../../engines/failures";
import { LOAD_TABLE_PREFIX, physicalTable, primaryKeyIndex, type StoredTable } from "../registry";
import type { BeforeImagesJson, RecordStore } from "../store";
import type { ImportProgress, ImportResult } from "./csv-import";
import { differs, importImageColumns, keepLastLines, keysOf } from "./load-steps";

/**
 * Files of this many rows or more are imported into an existing Table by rebuilding it. Below,
 * in place: an update of a few Records of a large Table should not copy all of it (1,000,000
 * rows in place peaked at 754 MB, within the 512MB default plus 300 MB; measured).
 */
export const REBUILD_FROM = 1_000_000;

/** The first window of the file read to find the Records an import updates or adds, for the trail. */
const FIRST_WINDOW = 20_000;
/** The widest window (see `windowed`). */
export const LAST_WINDOW = 2_000_000;

/** This path cannot take the file (the caller takes the staging path): see `loadAndRebuild`. */
class Declined extends Error {}

/**
 * Imports `file` (already checked by the engine's scan: `rows` rows) into `table` by rebuilding
 * it; undefined when this path cannot (the caller takes the staging path): the engine cannot
 * commit between steps, reads the file otherwise than its scan did, or too many keys repeat.
 */
export async function loadAndRebuild(store: RecordStore, table: StoredTable, file: string, names: string[], rows: number,
  report: (p: ImportProgress) => void, keysWanted: number | undefined,
): Promise<ImportResult | undefined> {
  const engine = store.engine;
  const b = engine.builder;
  const csvLoad = engine.dialect.csvLoad!;
  const pk = table.primaryKey;
  const fields = table.fields.map((f) => f.key);
  const types = names.map((n) => table.byKey.get(n)!.type);
  const others = names.filter((n) => n !== pk);
  const left = fields.filter((f) => !names.includes(f));
  const id = randomUUID().replaceAll("-", "");
  const load = `${LOAD_TABLE_PREFIX}${id}`;
  const kept = `${LOAD_TABLE_PREFIX}${id}_kept`;
  const merging = (fraction: number) => report({ phase: "merging", fraction });

  const attempt = (repeats: boolean) =>
    engine.write(async (tx): Promise<ImportResult> => {
      if (!tx.commit) throw new Declined();
      // 1. The file, committed.
      await tx.run(physicalTable(engine, table, load, true));
      let loaded = (await tx.run(CompiledQuery.raw(csvLoad.loadSql(load, file, names, types)), (fraction) => report({ phase: "loading", fraction }), { unordered: true })).changes;
      if (loaded !== rows) throw new Declined();
      if (repeats) {
        const n = await keepLastLines(engine, tx, load, loaded, file, table, names, report);
        if (n === undefined) throw new Declined();
        loaded = n;
      }
      await tx.commit!();

      // 2. The Records the file does not name, set aside; what it overwrites and adds, read.
      merging(0);
      const before = Number((await tx.run(b.selectFrom(table.physical).select(sql`count(*)`.as("n")).compile())).rows[0][0]);
      const unnamed = b
        .selectFrom(`${table.physical} as t`)
        .select(fields.map((f) => sql.ref(`t.${f}`).as(f)))
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom(`${load} as l`).select(sql`1`.as("one")).whereRef(`l.${pk}`, "=", `t.${pk}`))));
      await tx.run(b.schema.createTable(kept).as(unnamed).compile(), merging, { frugal: true });
      const keptRows = Number((await tx.run(b.selectFrom(kept).select(sql`count(*)`.as("n")).compile())).rows[0][0]);
      const updated = before - keptRows;
      const inserted = loaded - updated;
      // The file's first rows in a window (any order: the load's), for the trail's reads.
      const window = (n: number) => b.selectFrom(load).select(names.map((f) => sql.ref(f).as(f))).limit(n).as("s");
      let imagesJson: BeforeImagesJson | undefined;
      let changed: number | undefined;
      if (keysWanted && updated > 0) {
        // Key, the Fields as they are, then as the file sets them (as the staging path reads
        // them), of the Records it really changes.
        const refs = importImageColumns(table, others);
        const want = Math.min(keysWanted, updated);
        const { found, covered } = await windowed(tx, loaded, want, (n) =>
          b.selectFrom(window(n)).innerJoin(`${table.physical} as t`, `t.${pk}`, `s.${pk}`).where(differs(others, "t", "s")).select(engine.dialect.jsonRow(refs).as("j")),
        );
        imagesJson = { fields: [pk, ...others], rowsJson: `[${found.map(String).join(",")}]` };
        // Fewer than asked over the whole file: that is all of them. Over part of it, or as
        // many as asked: not counted (the trail then counts the rest of those updated as not named).
        changed = found.length < want ? (covered ? found.length : undefined) : want === updated ? updated : undefined;
      } else if (keysWanted) changed = 0;
      const added =
        keysWanted === undefined
          ? undefined
          : inserted === 0
            ? []
            : (
                await windowed(tx, loaded, Math.min(keysWanted, inserted), (n) =>
                  b.selectFrom(window(n)).leftJoin(`${table.physical} as t`, `t.${pk}`, `s.${pk}`).where(sql.ref(`t.${pk}`), "is", null).select(sql.ref(`s.${pk}`).as("k")),
                )
              ).found;
      // The Fields the file leaves out keep the values they have.
      if (left.length) {
        await tx.run(
          b
            .updateTable(load)
            .from(`${table.physical} as t`)
            .set(Object.fromEntries(left.map((f) => [f, sql.ref(`t.${f}`)])))
            .whereRef(`${load}.${pk}` as never, "=", `t.${pk}` as never)
            .compile(),
          merging,
          { frugal: true },
        );
      }
      await tx.run(b.insertInto(load).columns(fields).expression(b.selectFrom(kept).select(fields.map((f) => sql.ref(f).as(f)))).compile(), merging, { unordered: true });
      await tx.run(b.schema.dropTable(kept).compile());
      await tx.commit!();

      // 3. The swap, with the key index (a key the file repeats fails it: nothing is swapped).
      await tx.run(b.schema.dropTable(table.physical).compile());
      await tx.run(b.schema.alterTable(load).renameTo(table.physical).compile());
      await tx.run(primaryKeyIndex(engine, table), (fraction) => report({ phase: "indexing", fraction }), { frugal: true });
      return { inserted, updated, created: false, loadedBy: "engine", before: imagesJson, added, ...(keysWanted ? { changed } : {}) };
    });

  const dropLoads = () =>
    engine.write(async (tx) => {
      for (const t of [kept, load]) await tx.run(b.schema.dropTable(t).ifExists().compile());
    });
  try {
    try {
      return await attempt(false);
    } catch (e) {
      if (kindOf(engine.dialect, e) !== "unique") throw e;
      // A key the file repeats: again, keeping the last line of each.
      await dropLoads();
      return await attempt(true);
    }
  } catch (e) {
    if (e instanceof Declined) return undefined;
    throw e;
  } finally {
    await dropLoads().catch(() => undefined);
  }
}

/**
 * At most `want` rows of a query over a window of the file's first rows, found in the first
 * window where there are that many, the window widened tenfold up to LAST_WINDOW rows: a
 * re-import finds its first overwritten Records at once, without joining every row of the file.
 * `covered`: the last window held the whole file. Not past LAST_WINDOW: a 10,000,000-row file
 * that changes nothing joined in full took 17 s more and peaked at 997 MB (measured).
 */
async function windowed(tx: SqlTx, loaded: number, want: number, query: (window: number) => { limit(n: number): { compile(): CompiledQuery } }): Promise<{ found: unknown[]; covered: boolean }> {
  for (let n = Math.max(FIRST_WINDOW, want * 2); ; n *= 10) {
    const found = await keysOf(tx, query(n), want);
    if (found.length >= want || n >= loaded || n >= LAST_WINDOW) return { found, covered: n >= loaded };
  }
}
