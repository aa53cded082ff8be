/**
 * CSV import (issue 10 item 5, contract C), shared by `npm run import` and the HTTP extension:
 * creates the Table when missing (types inferred in a first pass over the file, or given) or
 * updates-or-inserts by primary key, all or nothing. A bad row stops the import with its line
 * number (the header is line 1) and nothing is written. Three ways in, fastest first:
 * - the engine's own reader checks the file (scan.ts) and loads it straight into a new Table
 *   (`loadThenAdopt`): 10,000,000 rows in about 30 s at DuckDB's default 512MB; or, for a file
 *   of REBUILD_FROM rows or more, into an existing Table rebuilt beside itself (rebuild.ts);
 * - the engine's reader fills a staging table, then one statement moves the rows (an existing
 *   Table, or keys that repeat: the last line wins);
 * - our own pass streams rows (csv-parse) into the staging table through the engine's bulk
 *   path (DuckDB's appender, PostgreSQL's COPY).
 * Memory stays bounded whatever the file size.
 */
import { didYouMean } from "../../../../shared/near-name";
import fs from "node:fs";
import { isUtf8 } from "node:buffer";
import { parse } from "csv-parse";
import { CompiledQuery, sql } from "kysely";
import { type Result, fail, ok } from "../../../../shared/errors";
import type { FieldType } from "../../../../shared/records";
import { CSV_LINE_MAX_BYTES } from "../../../../shared/limits";
import { textProblem } from "../../../../shared/values";
import { randomUUID } from "node:crypto";
import type { SqlEngine, SqlTx } from "../../engines/engine";
import { kindOf, stateFailure } from "../../engines/failures";
import { type FieldDef, LOAD_TABLE_PREFIX, physicalTable, primaryKeyIndex, type StoredTable, type TableDef, TableExistsError, validateDef } from "../registry";
import type { BeforeImagesJson, RecordStore } from "../store";
import { type CsvParseError, csvProblem, isCsvParseError, problemLine } from "../../../../shared/csv-problem";
import { allCandidates, type Candidates, cellValue, inferred, narrow, nulInCell } from "./cells";
import { type ScanColumn, scanTests, scanVerdict } from "./scan";
import { differs, importImageColumns, keepLastLines, keysOf } from "./load-steps";
import { loadAndRebuild, REBUILD_FROM } from "./rebuild";

export interface ImportOptions {
  databaseId: string;
  slug: string;
  /** Used only when the Table does not exist yet; default: the first column. */
  primaryKey?: string;
  /** Types for a new Table, overriding inference. */
  types?: Record<string, FieldType>;
  /** Told how far the import has got: rows every `PROGRESS_EVERY`, or a fraction of a phase. */
  onProgress?(progress: ImportProgress): void;
  /**
   * Also read what the import overwrites, of at most this many of the Records it updates (the
   * beforeImages extension, for the audit trail): `before` in the result.
   */
  beforeImages?: number;
  /** An existing Table is rebuilt for a file of this many rows or more (rebuild.ts; default REBUILD_FROM). */
  rebuildFrom?: number;
}

/** Where an import is: checking the file, loading it, building the primary key's index. */
export interface ImportProgress {
  /** `merging`: an existing Table's Records joined with the file's (rebuild.ts). */
  phase: "checking" | "loading" | "merging" | "indexing";
  /** Rows done so far (our own pass and the appender count rows). */
  rows?: number;
  /** How much of the phase is done, 0–1 (the engine's own reader and index build). */
  fraction?: number;
}

export interface ImportResult {
  inserted: number;
  updated: number;
  created: boolean;
  /**
   * How the rows went in (for the CLI and tests): the engine's reader straight into a new
   * Table or a rebuilt one, its reader into the staging table, or our own pass through the
   * appender.
   */
  loadedBy: "engine" | "staging" | "appender";
  /**
   * With `beforeImages`: the Records it updated, read in its transaction before they were
   * overwritten. `fields` are the primary key, then the other columns of the file; each row holds
   * the key, those Fields as they were, then as the file set them.
   */
  before?: BeforeImagesJson;
  /**
   * With `beforeImages`: of the Records it updated, how many it really changed (a value
   * differed); `before` holds those (at most that many). Undefined where it was not counted
   * (more than `beforeImages` of them, on the rebuild path).
   */
  changed?: number;
  /** With `beforeImages`: the keys of the Records it added, at most that many (the count says how many in all). */
  added?: unknown[];
}

const BATCH = 2048;
export const PROGRESS_EVERY = 100_000;
/**
 * Rows our own pass reads before the engine's scan takes the rest: enough to name a bad early
 * line at once and settle most columns' types, few enough to take milliseconds.
 */
export const SAMPLE_ROWS = 1_000;

class LineError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

type Row = { line: number; cells: string[] };

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Rows of a CSV file with their 1-based line numbers (the header row is line 1). Lines are
 * counted here (1 + the line breaks inside quoted cells) rather than by csv-parse's `info`
 * option, which builds an object per record and costs a quarter of the parse.
 */
async function* csvRows(file: string): AsyncIterable<Row> {
  const source = fs.createReadStream(file);
  // Cells as bytes: each is checked to be UTF-8 before it becomes text (decoding would quietly
  // turn a Latin-1 "ü" into "�", and the engine's reader refuses the file later in its own words).
  // The byte-order mark (Excel's "CSV UTF-8" writes one) is taken off here: csv-parse's own `bom`
  // hands the first cell over as a string when cells are bytes.
  // Strict quotes: csv-parse's relax_quotes also took `"Bo" Lee` (a quoted value with more text
  // after it), which DuckDB's reader refuses when it loads the file.
  const parser = source.pipe(parse({ bom: false, relax_column_count: true, skip_empty_lines: false, encoding: null, max_record_size: CSV_LINE_MAX_BYTES }));
  let line = 1;
  try {
    for await (const raw of parser as AsyncIterable<Buffer[]>) {
      const at = line;
      line++;
      if (at === 1 && raw[0]?.subarray(0, 3).equals(UTF8_BOM)) raw[0] = raw[0].subarray(3);
      const cells = raw.map((bytes, i) => {
        if (!isUtf8(bytes)) throw new LineError(at, `cell ${i + 1} is not UTF-8 text (the file was saved in another encoding, such as Latin-1 or Windows-1252): save it as UTF-8 (in Excel: "CSV UTF-8") and import again.`);
        return bytes.toString("utf8");
      });
      for (const cell of cells) for (let i = cell.indexOf("\n"); i >= 0; i = cell.indexOf("\n", i + 1)) line++;
      if (cells.length === 1 && cells[0] === "") continue; // an empty line
      yield { line: at, cells };
    }
  } catch (e) {
    const err = e as CsvParseError;
    // In lines and cells, not csv-parse's "Records" (a Record is something else here). A quoted
    // value that runs on is named where it opens (the row after the last whole one, `line`).
    if (isCsvParseError(err)) {
      // The parser reads ahead of the rows taken from it: where the failing row starts is
      // found by reading the file again up to it (`records`: the rows read whole before).
      const start = typeof err.records === "number" ? await lineAfterRows(file, err.records) : line;
      throw new LineError(problemLine(err, start), `the CSV is malformed: ${csvProblem(err, undefined, start).replace(/^line \d+: /, "")}`);
    }
    throw e;
  } finally {
    // pipe() does not close the file when the reader stops early (header() reads one row): an
    // open descriptor per import would pin the deleted spool's space until the service exits.
    source.destroy();
  }
}

/** The line after the first `rows` rows of a file (lines counted as csvRows counts them). */
async function lineAfterRows(file: string, rows: number): Promise<number> {
  let line = 1;
  if (rows === 0) return line;
  const source = fs.createReadStream(file);
  try {
    for await (const raw of source.pipe(parse({ bom: false, relax_column_count: true, skip_empty_lines: false, encoding: null, to: rows })) as AsyncIterable<Buffer[]>) {
      line++;
      for (const cell of raw) for (let i = cell.indexOf(10); i >= 0; i = cell.indexOf(10, i + 1)) line++;
    }
  } finally {
    source.destroy();
  }
  return line;
}

async function header(file: string): Promise<{ names: string[]; line: number }> {
  for await (const row of csvRows(file)) return { names: row.cells.map((c) => c.trim()), line: row.line };
  throw new LineError(1, "the file is empty: the first row must name the Fields.");
}

/** What our own pass found: the rows it read and each column's type, known or inferred. */
interface Checked {
  rows: number;
  types: FieldType[];
}

/**
 * Our own pass: checks each row (its cell count, a non-empty primary key, each cell of a column
 * whose type is known: an existing Field or a type given) and narrows the other columns'
 * types. Up to `limit` rows (`complete` says whether that was all of them); an inferred type
 * holds for every cell it saw by construction, so after a complete pass the whole file is known
 * good and a loader that does not check (DuckDB's CSV reader) may take it.
 */
async function checkRows(file: string, names: string[], known: (FieldDef | undefined)[], primaryKey: string,
  progress: (n: number) => void, limit = Infinity,
): Promise<Checked & { complete: boolean; candidates: Candidates[] }> {
  const candidates: Candidates[] = names.map(() => allCandidates());
  const seen = names.map(() => false);
  let rows = 0;
  let first = true;
  let complete = true;
  for await (const { line, cells } of csvRows(file)) {
    if (first) {
      first = false;
      continue;
    }
    if (rows === limit) {
      complete = false;
      break;
    }
    if (cells.length !== names.length) throw new LineError(line, `${cells.length} values for ${names.length} columns.`);
    for (let i = 0; i < names.length; i++) {
      const cell = cells[i];
      const field = known[i];
      if (field) {
        const v = cellValue(field, cell, names[i] === primaryKey);
        if (!v.ok) throw new LineError(line, v.error.message);
      } else if (cell === "") {
        if (names[i] === primaryKey) throw new LineError(line, `"${primaryKey}" is the primary key and cannot be empty.`);
      } else {
        // A column whose type is still to be found: a NUL is refused whatever it turns out to be.
        if (textProblem(cell) === "nul") throw new LineError(line, nulInCell(names[i]));
        seen[i] = true;
        narrow(candidates[i], cell);
      }
    }
    if (++rows % PROGRESS_EVERY === 0) progress(rows);
  }
  return { rows, complete, candidates, types: names.map((_, i) => known[i]?.type ?? inferred(candidates[i], seen[i])) };
}

/**
 * Our pass over the first `SAMPLE_ROWS` rows (a bad early line is named at once, and most
 * columns' candidate types are settled), then the engine's scan over the whole file where it
 * has one and is sure; else our pass over the whole file.
 */
async function check(engine: SqlEngine, file: string, names: string[], known: (FieldDef | undefined)[], primaryKey: string,
  report: (p: ImportProgress) => void,
): Promise<Checked & { scanned: boolean }> {
  const counted = (rows: number) => report({ phase: "checking", rows });
  const csvLoad = engine.dialect.csvLoad;
  // Without the engine's reader our own pass reads it all, once.
  if (!csvLoad) return { ...(await checkRows(file, names, known, primaryKey, counted)), scanned: false };
  const sample = await checkRows(file, names, known, primaryKey, counted, SAMPLE_ROWS);
  if (sample.complete) return { ...sample, scanned: false };
  const columns: ScanColumn[] = names.map((n, i) => ({ known: known[i], primaryKey: n === primaryKey, candidates: sample.candidates[i] }));
  const tests = scanTests(columns);
  if (tests) {
    let row: unknown[] | undefined;
    try {
      [{ rows: [row] }] = await engine.read([CompiledQuery.raw(csvLoad.scanSql(file, names, tests))], (fraction) => report({ phase: "checking", fraction }));
    } catch {
      // The reader refused the file (a row of another width, a stray quote, bad UTF-8): our
      // own pass below says where, or finds the file good after all.
    }
    const verdict = row && scanVerdict(columns, tests, row);
    if (verdict) return { ...verdict, scanned: true };
  }
  return { ...(await checkRows(file, names, known, primaryKey, counted)), scanned: false };
}

function newTableDef(options: ImportOptions, names: string[], types: FieldType[]): TableDef {
  const primaryKey = options.primaryKey ?? names[0];
  if (!names.includes(primaryKey)) throw new LineError(1, `the primary key "${primaryKey}" is not a column of the file (columns: ${names.join(", ")}).`);
  for (const key of Object.keys(options.types ?? {})) {
    if (!names.includes(key)) throw new LineError(1, `type given for "${key}", which is not a column of the file.`);
  }
  const fields: FieldDef[] = names.map((key, i) => ({ key, type: options.types?.[key] ?? types[i], nullable: key !== primaryKey }));
  const def: TableDef = { databaseId: options.databaseId, slug: options.slug, primaryKey, fields };
  try {
    validateDef(def);
  } catch (e) {
    throw new LineError(1, (e as Error).message);
  }
  return def;
}

/** Pass 2: checked, encoded rows in batches (line number first). */
async function* encodedBatches(file: string, table: StoredTable, fields: FieldDef[], progress: (n: number) => void): AsyncIterable<unknown[][]> {
  let batch: unknown[][] = [];
  let n = 0;
  let first = true;
  for await (const { line, cells } of csvRows(file)) {
    if (first) {
      first = false;
      continue;
    }
    if (cells.length !== fields.length) throw new LineError(line, `${cells.length} values for ${fields.length} columns.`);
    const row: unknown[] = [line];
    for (let i = 0; i < fields.length; i++) {
      const v = cellValue(fields[i], cells[i], fields[i].key === table.primaryKey);
      if (!v.ok) throw new LineError(line, v.error.message);
      row.push(v.value);
    }
    batch.push(row);
    if (++n % PROGRESS_EVERY === 0) progress(n);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * The engine's load of a new Table, in two transactions: the file goes into an unregistered
 * table (`LOAD_TABLE_PREFIX`), committed; then the Table is registered, the load table renamed
 * to it and its primary key's index built, committed. DuckDB builds the index of committed rows
 * within its memory limit, while an index over 10,000,000 rows written in the same transaction
 * took 1.4 GB at 512MB (measured). Until the second commit no Table exists: a failure drops the
 * load table (the registry drops one left by a process that stopped in between), so the import
 * is still all or nothing. A key that repeats keeps its last line (keepLastLines). Undefined when
 * too many keys repeat: the caller takes the staging path.
 */
async function loadThenAdopt(store: RecordStore, file: string, def: TableDef, names: string[], checked: Checked,
  report: (p: ImportProgress) => void, keysWanted: number | undefined,
): Promise<ImportResult | undefined> {
  const engine = store.engine;
  const csvLoad = engine.dialect.csvLoad!;
  const load = `${LOAD_TABLE_PREFIX}${randomUUID().replaceAll("-", "")}`;
  let created: StoredTable | undefined;
  try {
    const loaded = await engine.write(async (tx) => {
      await tx.run(physicalTable(engine, def, load, true));
      const sql = csvLoad.loadSql(load, file, names, names.map((n) => def.fields.find((f) => f.key === n)!.type));
      return (await tx.run(CompiledQuery.raw(sql), (fraction) => report({ phase: "loading", fraction }), { unordered: true })).changes;
    });
    // The reader saw the file otherwise than the scan did (it should not): the staging path.
    if (loaded !== checked.rows) return undefined;
    const adopt = () =>
      engine.write(async (tx) => {
        created = await store.createTable(def, tx, { primaryKeyLater: true, adopt: load });
        await tx.run(primaryKeyIndex(engine, created), (fraction) => report({ phase: "indexing", fraction }), { frugal: true });
        return keysWanted ? keysOf(tx, engine.builder.selectFrom(created.physical).select(sql.ref(created.primaryKey).as("k")), keysWanted) : undefined;
      });
    let rows = loaded;
    let added: unknown[] | undefined;
    try {
      added = await adopt();
    } catch (e) {
      // A key that repeats fails the key index (nothing is adopted): the last line of each is
      // kept, then the Table adopts the load. Looking for repeats only then costs a file of
      // distinct keys nothing (a sort of 10,000,000 keys first raised its peak by ~190 MB).
      if (kindOf(engine.dialect, e) !== "unique") throw e;
      if (created) store.forgetTable(created);
      created = undefined;
      // Too many keys repeating: nothing changed, left to the staging path.
      const kept = await engine.write((tx) => keepLastLines(engine, tx, load, loaded, file, def, names, report));
      if (kept === undefined) return undefined;
      rows = kept;
      added = await adopt();
    }
    store.touched(created!);
    return { inserted: rows, updated: 0, created: true, loadedBy: "engine", added };
  } catch (e) {
    if (created) store.forgetTable(created);
    if (kindOf(engine.dialect, e) === "unique") return undefined;
    throw e;
  } finally {
    await engine.write((tx) => tx.run(engine.builder.schema.dropTable(load).ifExists().compile())).catch(() => undefined);
  }
}

/** Imports a CSV file; a Result so that callers (CLI, HTTP) report failures in the one error shape. */
export async function importCsv(store: RecordStore, file: string, options: ImportOptions): Promise<Result<ImportResult>> {
  const engine = store.engine;
  const b = engine.builder;
  let created: StoredTable | undefined;
  try {
    const { names } = await header(file);
    const existing = await store.table(options.databaseId, options.slug);
    let def: TableDef | undefined;
    if (existing) {
      for (const name of names) {
        if (!existing.byKey.has(name)) {
          const keys = existing.fields.map((f) => f.key);
          throw new LineError(1, `"${name}" is not a Field of ${existing.databaseId}/${existing.slug}${didYouMean(name, keys)} (Fields: ${keys.join(", ")}).`);
        }
      }
      if (new Set(names).size !== names.length) throw new LineError(1, "a column is named twice.");
      if (!names.includes(existing.primaryKey)) throw new LineError(1, `the primary key "${existing.primaryKey}" must be a column to update or insert by it.`);
      for (const f of existing.fields) {
        if (!f.nullable && !names.includes(f.key)) throw new LineError(1, `"${f.key}" cannot be null, so it must be a column.`);
      }
    }
    // Header errors first (line 1), before any row is read.
    const primaryKey = existing?.primaryKey ?? newTableDef(options, names, names.map(() => "text")).primaryKey;
    const known: (FieldDef | undefined)[] = existing
      ? names.map((n) => existing.byKey.get(n))
      : names.map((key) => (options.types?.[key] ? { key, type: options.types[key], nullable: key !== primaryKey } : undefined));
    // A new Table needs the file checked first to infer its types. An existing Table's rows, on
    // the appender path, are checked as they are appended: one pass.
    const csvLoad = engine.dialect.csvLoad;
    // Worth checking by the scan when the engine could then load it (sure of every cell).
    const needsCheck = !existing || (csvLoad?.fits(existing.fields.map((f) => f.type), true) ?? false);
    const report = (p: ImportProgress) => options.onProgress?.(p);
    const checked = needsCheck ? await check(engine, file, names, known, primaryKey, report) : undefined;
    if (!existing) def = newTableDef(options, names, checked!.types);

    // A new Table whose file the engine checked is loaded by the engine straight into its
    // table; one whose keys repeat takes the staging path below (the last line wins).
    if (def && checked?.scanned && csvLoad?.fits(checked.types, true) && engine.dialect.primaryKeyAfterLoad) {
      const loaded = await loadThenAdopt(store, file, def, names, checked, report, options.beforeImages);
      if (loaded) return ok(loaded);
    }
    // Many rows into an existing Table the engine checked: rebuilt beside it, then swapped in.
    if (existing && checked?.scanned && csvLoad?.fits(known.map((f) => f!.type), true) && engine.dialect.primaryKeyAfterLoad && checked.rows >= (options.rebuildFrom ?? REBUILD_FROM)) {
      const rebuilt = await store.writing(existing, () => loadAndRebuild(store, existing, file, names, checked.rows, report, options.beforeImages));
      if (rebuilt) return ok(rebuilt);
    }
    const progress = (rows: number) => report({ phase: "loading", rows });

    // Into an existing Table: a write in flight for its readers' counts (store.writing).
    const write = (fn: () => Promise<ImportResult>) => (existing ? store.writing(existing, fn) : fn());
    const result = await write(() => engine.write(async (tx: SqlTx): Promise<ImportResult> => {
      // A new Table's key index is built once its rows are in (dialect.primaryKeyAfterLoad).
      const keyLater = !existing && engine.dialect.primaryKeyAfterLoad === true;
      const table = existing ?? (created = await store.createTable(def!, tx, { primaryKeyLater: keyLater }));
      const fields = names.map((n) => table.byKey.get(n)!);
      const pk = table.primaryKey;
      // A staging table inside the transaction: rolled back with everything else on failure.
      const staging = `bb_import_${table.id}`;
      let create = b.schema.createTable(staging).addColumn("bb_line", "bigint");
      for (const f of fields) create = create.addColumn(f.key, engine.dialect.columnType(f.type));
      await tx.run(create.compile());
      const types = fields.map((f) => f.type);
      let appended = 0;
      if (checked && csvLoad?.fits(types, checked.scanned)) {
        // Every row was checked by pass 1: the engine's own reader loads the file.
        appended = (await tx.run(CompiledQuery.raw(csvLoad.insertSql(staging, file, names, types)), (fraction) => report({ phase: "loading", fraction }))).changes;
        if (appended !== checked.rows) {
          // The reader saw the file otherwise than csv-parse (it should not): the slow, sure path.
          await tx.run(b.deleteFrom(staging).compile());
          appended = 0;
        }
      }
      const loadedBy = appended === 0 ? "appender" : "staging";
      if (appended === 0) appended = await tx.append(staging, ["bb_line", ...names], encodedBatches(file, table, fields, progress));
      progress(appended);
      // A key given twice in the file: its last line wins, as if the rows were applied in order.
      // The earlier lines of the keys that repeat are dropped from the staging table: a hash
      // aggregate over the keys, where keeping the latest of every key (DISTINCT ON) sorted every
      // row with all its columns (1,000,000 rows: 9.3 s and 783 MB peak against 2.6 s clean).
      const repeats = `${staging}_repeats`;
      await tx.run(
        b.schema.createTable(repeats).as(b.selectFrom(staging).select([sql.ref(pk).as("k"), sql`max(bb_line)`.as("last")]).groupBy(pk).having(sql`count(*)`, ">", 1)).compile(),
      );
      const repeated = Number((await tx.run(b.selectFrom(repeats).select(sql<number>`count(*)`.as("n")).compile())).rows[0]?.[0] ?? 0);
      if (repeated > 0) {
        await tx.run(
          b
            .deleteFrom(staging)
            .where(({ exists, selectFrom }) => exists(selectFrom(`${repeats} as r`).select(sql`1`.as("one")).whereRef("r.k", "=", sql.ref(`${staging}.${pk}`) as never).whereRef("r.last", ">", sql.ref(`${staging}.bb_line`) as never)))
            .compile(),
        );
      }
      await tx.run(b.schema.dropTable(repeats).compile());
      const latest = b.selectFrom(staging).select(names.map((n) => sql.ref(n).as(n)));
      const rows = b.selectFrom(latest.as("s")).select(names.map((n) => sql.ref(`s.${n}`).as(n)));
      if (!existing) {
        // A new Table has no Record to update.
        const added = options.beforeImages ? await keysOf(tx, b.selectFrom(staging).select(sql.ref(pk).as("k")), options.beforeImages) : undefined;
        const { changes } = await tx.run(b.insertInto(table.physical).columns(names).expression(rows).compile());
        await tx.run(b.schema.dropTable(staging).compile());
        if (keyLater) await tx.run(primaryKeyIndex(engine, table), (fraction) => report({ phase: "indexing", fraction }), { frugal: true });
        return { inserted: changes, updated: 0, created: true, loadedBy, added };
      }
      const others = names.filter((n) => n !== pk);
      const changing = differs(others, "t", "s");
      const matched = await tx.run(
        b
          .selectFrom(latest.as("s"))
          .innerJoin(`${table.physical} as t`, `t.${pk}`, `s.${pk}`)
          .select([sql<number>`count(*)`.as("n"), sql<number>`count(*) filter (where ${changing})`.as("changed")])
          .compile(),
      );
      const updated = Number(matched.rows[0][0]);
      const changed = Number(matched.rows[0][1]);
      let before: BeforeImagesJson | undefined;
      if (options.beforeImages && changed > 0) {
        // Key, the Fields as they are, then as the file sets them, of the Records it changes.
        const refs = importImageColumns(table, others);
        const images = b.selectFrom(latest.as("s")).innerJoin(`${table.physical} as t`, `t.${pk}`, `s.${pk}`).where(changing).select(engine.dialect.jsonRow(refs).as("j")).limit(options.beforeImages);
        const read = await tx.run(b.selectFrom(images.as("i")).select(engine.dialect.jsonArrayOf(sql.ref("i.j")).as("rows")).compile(), undefined, { unordered: true });
        before = { fields: [pk, ...others], rowsJson: String(read.rows[0]?.[0] ?? "[]") };
      }
      // The keys of the Records it adds: those no Record has yet.
      const added = options.beforeImages
        ? await keysOf(tx, b.selectFrom(latest.as("s")).leftJoin(`${table.physical} as t`, `t.${pk}`, `s.${pk}`).where(sql.ref(`t.${pk}`), "is", null).select(sql.ref(`s.${pk}`).as("k")), options.beforeImages)
        : undefined;
      const { changes } = await tx.run(
        b
          .insertInto(table.physical)
          .columns(names)
          .expression(rows)
          .onConflict((oc) =>
            others.length === 0 ? oc.column(pk).doNothing() : oc.column(pk).doUpdateSet(Object.fromEntries(others.map((n) => [n, sql.ref(`excluded.${n}`)]))),
          )
          .compile(),
      );
      await tx.run(b.schema.dropTable(staging).compile());
      // DuckDB counts an upserted row once; with others empty, conflicting rows are not counted.
      return { inserted: others.length === 0 ? changes : changes - updated, updated, created: false, loadedBy, before, added, ...(options.beforeImages ? { changed } : {}) };
    }));
    const table = await store.table(options.databaseId, options.slug);
    if (table) store.touched(table);
    return ok(result);
  } catch (e) {
    if (created) store.forgetTable(created);
    // Another import (here or on another instance) created the Table first: import into it.
    if (e instanceof TableExistsError && !created) return importCsv(store, file, options);
    if (e instanceof LineError) return fail("validation_error", e.message);
    const kind = kindOf(engine.dialect, e);
    const state = stateFailure(kind, engine.dialect);
    if (state) return state;
    if (kind === "notNull") return fail("validation_error", "A Field that cannot be null would become null; nothing was imported.");
    throw e;
  }
}
