/**
 * The Record store: query, update, field listing and bulk inserts over the table registry,
 * above the engine seam (engines/engine.ts). SQL comes from the compiler's one door
 * (compile-read.ts: parse, plan cache, plan); the store runs it through the engine
 * asynchronously (a query's items and count read one snapshot) and caches counts.
 *
 * Counts are cached by filter, reused across pages until one of the tables read changes
 * (a per-table version counter bumped by every write of this process, and an epoch bumped
 * when the engine reports another process's write).
 */
import { type CompiledQuery, sql } from "kysely";
import { type Result, fail, ok } from "../../../shared/errors";
import { type FieldInfo, QUERY_LIMIT_DEFAULT, type QueryBodyInput, type QueryResult, type RecordRow, type UpdateBodyInput } from "../../../shared/records";
import type { SqlEngine, SqlTx } from "../engines/engine";
import { kindOf, stateFailure } from "../engines/failures";
import { type CompiledRead, ReadCompiler } from "./compile-read";
import { SizedLruCache } from "./plan-cache";
import { BOUND_MAX_END, boundRank, pageRows, samplePercent } from "./bounded-top-n";
import { reversedPage } from "./query-plan";
import { type CreateOptions, fieldInfo, type StoredTable, type TableDef, TableRegistry } from "./registry";
import { decode, encodeTrusted } from "./values";

/** From this skip on, a page nearer the end than the start is read from the end (pageFromEnd). */
export const REVERSE_FROM = 1_000;

/** What an update overwrote (the beforeImages extension): `fields`, and the rows as the engine wrote them in JSON. */
export interface BeforeImagesJson {
  fields: string[];
  rowsJson: string;
}

export interface RecordStore {
  table(databaseId: string, slug: string): Promise<StoredTable | undefined>;
  tables(): Promise<StoredTable[]>;
  fields(table: StoredTable): FieldInfo[];
  query(table: StoredTable, body: QueryBodyInput): Promise<Result<QueryResult>>;
  /** Returns how many Records matched (and were updated). */
  update(table: StoredTable, body: UpdateBodyInput, opts?: { beforeImages?: number }): Promise<Result<{ matched: number; before?: BeforeImagesJson }>>;
  /** Creates a Table (inside `tx` when given, so an import that fails leaves none). */
  createTable(def: TableDef, tx?: SqlTx, options?: CreateOptions): Promise<StoredTable>;
  /** Inserts trusted rows (seed, benchmark) through the engine's bulk path, in `tx` or a transaction of its own. */
  insertRows(table: StoredTable, rows: Iterable<RecordRow>, tx?: SqlTx): Promise<number>;
  /** Forgets a Table created in a transaction that was then rolled back. */
  forgetTable(table: StoredTable): void;
  /** Marks a table changed by a write made outside `update` (import), so cached counts are dropped. */
  touched(table: StoredTable): void;
  /**
   * Runs a write of `table` (outside `update`), marked as in flight from its start to its end:
   * counts are neither cached nor trusted meanwhile, since its commit becomes visible to new
   * reads a moment before the write's promise settles here.
   */
  writing<T>(table: StoredTable, write: () => Promise<T>): Promise<T>;
  readonly engine: SqlEngine;
}

const COUNT_CACHE_ENTRIES = 1024;
/**
 * A page at least this far from the start of its sort, and from its end when nearer that, is
 * found by numbering the matches' keys (a window) instead of a top-N holding every row before it
 * in memory (Dialect.deepPagesByKeys).
 */
export const DEEP_FROM = 250_000;
/** How long a query waits for a write of its tables to end before reading page and count as one. */
const SETTLE_WAIT_MS = 250;
const COUNT_CACHE_BYTES = 4 * 1024 * 1024;

export class SqlRecordStore implements RecordStore {
  private counts = new SizedLruCache<number>(COUNT_CACHE_ENTRIES, COUNT_CACHE_BYTES, () => 0);
  private versions = new Map<number, number>();
  /** Writes in flight per table (`writing`): while any, its counts are not cached or trusted. */
  private inFlight = new Map<number, number>();
  private settledWaiters: (() => void)[] = [];
  private countQueries = 0;
  /** Parse, plan cache and plan: the compiler's one door (compile-read.ts). */
  readonly compiler: ReadCompiler;
  /** Bumped when another instance wrote (engine.onForeignWrite): every cached count is stale. */
  private epoch = 0;

  private constructor(
    readonly engine: SqlEngine,
    readonly registry: TableRegistry,
  ) {
    this.compiler = new ReadCompiler({ dialect: engine.dialect, builder: engine.builder, lookup: (db, slug) => registry.get(db, slug) });
    engine.onForeignWrite?.(() => this.epoch++);
  }

  static async open(engine: SqlEngine): Promise<SqlRecordStore> {
    return new SqlRecordStore(engine, await TableRegistry.open(engine));
  }

  async table(databaseId: string, slug: string) {
    return this.registry.find(databaseId, slug);
  }

  async tables() {
    return this.registry.listAll();
  }

  createTable(def: TableDef, tx?: SqlTx, options?: CreateOptions): Promise<StoredTable> {
    return this.registry.create(def, tx, options);
  }

  fields(table: StoredTable): FieldInfo[] {
    return fieldInfo(table);
  }

  forgetTable(table: StoredTable): void {
    this.registry.forget(table);
  }

  touched(table: StoredTable): void {
    this.versions.set(table.id, (this.versions.get(table.id) ?? 0) + 1);
  }

  // The version moves at both ends: a read that spans either end sees its key change.
  async writing<T>(table: StoredTable, write: () => Promise<T>): Promise<T> {
    this.inFlight.set(table.id, (this.inFlight.get(table.id) ?? 0) + 1);
    this.touched(table);
    try {
      return await write();
    } finally {
      const left = (this.inFlight.get(table.id) ?? 1) - 1;
      if (left > 0) this.inFlight.set(table.id, left);
      else this.inFlight.delete(table.id);
      this.touched(table);
      if (this.inFlight.size === 0) for (const wake of this.settledWaiters.splice(0)) wake();
    }
  }

  /** Whether no write of these tables is in flight, after waiting up to `ms` for them to end. */
  private async settled(tables: number[], ms: number): Promise<boolean> {
    const busy = () => tables.some((id) => this.inFlight.has(id));
    if (!busy()) return true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.settledWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return !busy();
  }

  /** Where deep pages start (DEEP_FROM; lower in tests), and how many were read by their keys. */
  deepFrom = DEEP_FROM;
  deepPages = 0;

  /** Sorted pages read within a bound, and bounds that came out unusable (for tests; bounded-top-n.ts). */
  readonly bounds = { used: 0, missed: 0 };

  /** How many count queries this store has run (for tests of the count cache). */
  get countsRun(): number {
    return this.countQueries;
  }

  private countKey(tables: number[], count: CompiledQuery): string {
    return `${this.epoch}|${tables.map((id) => `${id}@${this.versions.get(id) ?? 0}`).join(",")}|${count.sql}|${JSON.stringify(count.parameters)}`;
  }

  async query(table: StoredTable, body: QueryBodyInput): Promise<Result<QueryResult>> {
    const compiled = this.compiler.compileRead(table, body);
    if (!compiled.ok) return compiled;
    const { items: itemsQuery, count: countQuery, columns, tables, atMostOne } = compiled.value;
    // A count read while a write of these tables is in flight may be from before or after its
    // commit: such a query reads its page and count as one snapshot (after a short wait).
    const settled = atMostOne || (await this.settled(tables, SETTLE_WAIT_MS));
    const key = this.countKey(tables, countQuery);
    // Keys of huge filters are not worth keeping (and would crowd out the rest).
    const cacheable = settled && key.length < 64 * 1024 && !atMostOne;
    // A first page of a primary-key lookup holds every match: its length is the count.
    const fromItems = atMostOne && (body.skip ?? 0) === 0 && (body.limit ?? QUERY_LIMIT_DEFAULT) > 0;
    const known = fromItems ? -1 : cacheable ? this.counts.get(key) : undefined;
    try {
      const fromEnd = settled && compiled.value.reversed && (body.skip ?? 0) >= REVERSE_FROM ? await this.pageFromEnd(body, compiled.value, key, known) : undefined;
      if (fromEnd && "count" in fromEnd) {
        if (cacheable) this.counts.set(key, fromEnd.count);
        return ok({ items: fromEnd.rows.map((row) => this.record(columns, row)), count: fromEnd.count });
      }
      const bounded = settled && !fromEnd && !fromItems ? await this.boundedPage(table, body, compiled.value, key, known) : undefined;
      if (bounded) {
        if (cacheable) this.counts.set(key, bounded.count);
        return ok({ items: bounded.rows.map((row) => this.record(columns, row)), count: bounded.count });
      }
      const counted = fromEnd?.counted ?? known;
      if (known === undefined && counted !== undefined && cacheable) this.counts.set(key, counted);
      if (counted === undefined) this.countQueries++;
      // Deep in a sort (from its start, and from its end if read from there): the matches' keys
      // numbered in order, not a top-N.
      const skip = body.skip ?? 0;
      const deep = compiled.value.deep && skip >= this.deepFrom ? compiled.value.deep(skip, body.limit ?? QUERY_LIMIT_DEFAULT) : undefined;
      if (deep) this.deepPages++;
      const page = deep ?? itemsQuery;
      const results = await this.engine.read(counted === undefined ? [page, countQuery] : [page]);
      const n = fromItems ? results[0].rows.length : (counted ?? Number(results[1].rows[0]?.[0] ?? 0));
      if (counted === undefined && cacheable) this.counts.set(key, n);
      return ok({ items: results[0].rows.map((row) => this.record(columns, row)), count: n });
    } catch (e) {
      return this.failure(e, table);
    }
  }

  /**
   * A first page of many matches within a bound on its first sort term (bounded-top-n.ts): the
   * count (cached, or its own), then the sample's k-th value, then the page on its side; the
   * page alone when a bound would not pay. Undefined when there is no bound to use, or a write
   * came in between (the caller reads page and count as one).
   */
  private async boundedPage(table: StoredTable, body: QueryBodyInput, compiled: CompiledRead, key: string, known: number | undefined,
  ): Promise<{ rows: unknown[][]; count: number } | undefined> {
    const skip = body.skip ?? 0;
    const limit = body.limit ?? QUERY_LIMIT_DEFAULT;
    const { bounded } = compiled;
    if (!bounded || limit <= 0 || skip + limit > BOUND_MAX_END) return undefined;
    const one = async (q: CompiledQuery) => (await this.engine.read([q]))[0].rows;
    const count = known ?? (await this.countOf(compiled.count));
    // Whether a bound pays does not depend on the sample's size; its rank does.
    const pays = boundRank(count, skip, limit, 100) !== undefined;
    const percent = pays ? samplePercent(await this.tableRows(table)) : 100;
    const k = pays ? boundRank(count, skip, limit, percent) : undefined;
    let rows: unknown[][] | undefined;
    if (k !== undefined) {
      const sample = await one(bounded.probe(k, percent));
      const bound = sample.length === k ? sample[k - 1][0] : null;
      if (bound !== null && bound !== undefined) {
        rows = await one(bounded.page(bound));
        // Fewer rows than the page holds: the bound cut into it (a sample unlike the table).
        if (rows.length < pageRows(count, skip, limit)) rows = undefined;
      }
    }
    if (rows) this.bounds.used++;
    else if (k !== undefined) this.bounds.missed++;
    rows ??= await one(compiled.items);
    // A write between the count and the page may have moved the page: read both again as one.
    if (this.countKey(compiled.tables, compiled.count) !== key) return undefined;
    return { rows, count };
  }

  /** A count query's answer (counted in `countsRun`). */
  private async countOf(count: CompiledQuery): Promise<number> {
    this.countQueries++;
    const [{ rows }] = await this.engine.read([count]);
    return Number(rows[0]?.[0] ?? 0);
  }

  /** How many rows a table holds (the sample's base): kept in the count cache, like any count, until the table is written. */
  private async tableRows(table: StoredTable): Promise<number> {
    const q = this.engine.builder.selectFrom(table.physical).select(sql<number>`count(*)`.as("n")).compile();
    const key = this.countKey([table.id], q);
    const kept = this.counts.get(key);
    if (kept !== undefined) return kept;
    const rows = await this.countOf(q);
    this.counts.set(key, rows);
    return rows;
  }

  private record(columns: CompiledRead["columns"], row: unknown[]): RecordRow {
    const record: RecordRow = {};
    for (let i = 0; i < columns.length; i++) record[columns[i].key] = decode(columns[i].field.type, row[i]);
    return record;
  }

  /**
   * A page far from the start, when it lies nearer the end, read from the end: the reversed
   * order's page near its start. An engine sorting with a large offset keeps every row before
   * the page (DuckDB's top-N: skip 9,999,000 of 10,000,000 ran out of memory at 512MB), while
   * from the end it keeps a few. Needs the count first: the cached one or a count of its own.
   * `{ counted }` when the page is nearer the start (the caller reads it as usual, with that
   * count) or a write came in between the count and the page (the caller reads both again).
   */
  private async pageFromEnd(body: QueryBodyInput, compiled: CompiledRead, key: string, known: number | undefined,
  ): Promise<{ rows: unknown[][]; count: number } | { counted: number | undefined }> {
    const count = known ?? (await this.countOf(compiled.count));
    const skip = body.skip ?? 0;
    const limit = body.limit ?? QUERY_LIMIT_DEFAULT;
    if (skip + limit / 2 <= count / 2) return { counted: count };
    const page = reversedPage(skip, limit, count);
    // Deep from both ends (the middle of a large sort): numbered by its keys on the caller's path.
    if (compiled.deep && page.skip >= this.deepFrom) return { counted: count };
    const [{ rows }] = page.limit > 0 ? await this.engine.read([compiled.reversed!(page.skip, page.limit)]) : [{ rows: [] }];
    // A write between the count and the page may have moved the page: read both again as one.
    if (this.countKey(compiled.tables, compiled.count) !== key) return { counted: undefined };
    return { rows: rows.reverse(), count };
  }

  async update(table: StoredTable, body: UpdateBodyInput, opts: { beforeImages?: number } = {}): Promise<Result<{ matched: number; before?: BeforeImagesJson }>> {
    const compiled = this.compiler.compileUpdate(table, body, opts.beforeImages);
    if (!compiled.ok) return compiled;
    const { update, set, before } = compiled.value;
    try {
      // One statement in one transaction: all matching Records change or none. What it
      // overwrites is read in the same transaction, or beside it from the snapshot the
      // transaction began with, so it is exactly what was there.
      const out = await this.writing(table, () => this.engine.write(async (tx) => {
        // Read in any order: a LIMIT kept in table order runs on one thread (one Record needs neither).
        const unordered = before && !before.atMostOne;
        // Beside the update where the engine can: begun before the update commits, and read
        // while it runs and commits (the two take their time at once). The update is sent
        // first: starting the read may take this thread a moment, which the engine spends
        // updating. Else before it in the transaction.
        const readBeside = before && tx.readerBeside?.();
        if (readBeside) {
          const changing = tx.run(update);
          const [started, changed] = await Promise.all([readBeside(before.query, { atMostOne: before.atMostOne, pin: before.pin }), changing]);
          return { matched: changed.changes, reading: started.result };
        }
        const rows = before ? (await tx.run(before.query, undefined, { unordered })).rows : undefined;
        return { matched: (await tx.run(update)).changes, rows };
      }));
      if (!before) return ok({ matched: out.matched });
      let rows = out.rows;
      if (out.reading) {
        // The update has committed: a read that fails now only loses what it overwrote (the
        // answer then carries none; the trail records that it could not be read).
        rows = await out.reading.then((r) => r.rows, () => undefined);
      }
      if (!rows) return ok({ matched: out.matched });
      if (!before.atMostOne) return ok({ matched: out.matched, before: { fields: before.keys, rowsJson: String(rows[0]?.[0] ?? "[]") } });
      const types = before.keys.map((k) => table.byKey.get(k)!.type);
      const decoded = rows.map((row) => types.map((type, i) => decode(type, row[i])));
      return ok({ matched: out.matched, before: { fields: before.keys, rowsJson: JSON.stringify(decoded) } });
    } catch (e) {
      return this.failure(e, table, set);
    }
  }

  private failure(e: unknown, table: StoredTable, set?: Record<string, unknown>): Result<never> {
    const kind = kindOf(this.engine.dialect, e);
    if (kind === "unique" && set) {
      const pk = table.primaryKey;
      return fail("conflict", `Setting "${pk}" would give two Records the same primary key (${JSON.stringify(set[pk])}); nothing was written.`);
    }
    if (kind === "notNull") return fail("validation_error", "A Field that cannot be null would become null; nothing was written.");
    if (kind === "tooComplex") {
      return fail("validation_error", "The filter is nested too deeply or has too many conditions for the database. Flatten or simplify it.");
    }
    const state = stateFailure(kind, this.engine.dialect);
    if (state) return state;
    throw e;
  }

  async insertRows(table: StoredTable, rows: Iterable<RecordRow>, outer?: SqlTx): Promise<number> {
    const keys = table.fields.map((f) => f.key);
    async function* batches(): AsyncIterable<unknown[][]> {
      let batch: unknown[][] = [];
      for (const row of rows) {
        batch.push(table.fields.map((f) => encodeTrusted(f.type, row[f.key] ?? null)));
        if (batch.length === 2048) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
    }
    if (!outer) return this.writing(table, () => this.engine.write((tx) => tx.append(table.physical, keys, batches())));
    const n = await outer.append(table.physical, keys, batches());
    this.touched(table);
    return n;
  }
}
