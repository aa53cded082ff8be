/**
 * The Record store: query, update, field listing and bulk inserts over the table registry,
 * above the engine seam (engines/engine.ts). SQL is built with Kysely (query-plan.ts) and run
 * through the engine asynchronously; a query's items and count read one snapshot.
 *
 * Two caches, both bounded: compiled SQL by query shape (plan-cache.ts, bounded by the bytes
 * it holds), and counts by filter, reused across pages until one of the tables read changes
 * (a per-table version counter bumped by every write of this process, and an epoch bumped
 * when the engine reports another process's write).
 */
import { CompiledQuery } from "kysely";
import { type Result, fail, ok } from "../../../shared/errors";
import { quoteName } from "../../../shared/filter";
import { type FieldInfo, QUERY_LIMIT_DEFAULT, type QueryBodyInput, type QueryResult, type RecordRow, type UpdateBodyInput } from "../../../shared/records";
import type { SqlEngine, SqlTx } from "../engines/engine";
import { kindOf, stateFailure } from "../engines/failures";
import { bindFilterValues, type CachedPlan, SizedLruCache, queryShape, sameParams } from "./plan-cache";
import { compileFilters, type OutputColumn, parseFilters, planQuery, Scope } from "./query-plan";
import { fieldInfo, type StoredTable, type TableDef, TableRegistry } from "./registry";
import { decode, encodeTrusted, encodeWrite } from "./values";

/** The SQL of one query, compiled (what `query` runs, and what the benchmark runs directly). */
export interface CompiledRead {
  items: CompiledQuery;
  count: CompiledQuery;
  columns: OutputColumn[];
  /** Ids of the tables read (the count cache's versions). */
  tables: number[];
  /** At most one Record matches: a first page's length is its count. */
  atMostOne: boolean;
}

export interface RecordStore {
  table(databaseId: string, slug: string): Promise<StoredTable | undefined>;
  tables(): Promise<StoredTable[]>;
  fields(table: StoredTable): FieldInfo[];
  query(table: StoredTable, body: QueryBodyInput): Promise<Result<QueryResult>>;
  /** Returns how many Records matched (and were updated). */
  update(table: StoredTable, body: UpdateBodyInput): Promise<Result<{ matched: number }>>;
  /** Creates a Table (inside `tx` when given, so an import that fails leaves none). */
  createTable(def: TableDef, tx?: SqlTx): Promise<StoredTable>;
  /** Inserts trusted rows (seed, benchmark) through the engine's bulk path, in `tx` or a transaction of its own. */
  insertRows(table: StoredTable, rows: Iterable<RecordRow>, tx?: SqlTx): Promise<number>;
  /** Forgets a Table created in a transaction that was then rolled back. */
  forgetTable(table: StoredTable): void;
  /** Marks a table changed by a write made outside `update` (import), so cached counts are dropped. */
  touched(table: StoredTable): void;
  readonly engine: SqlEngine;
}

/** Compiled SQL kept at most (bytes of SQL text); a 5,000-condition plan is ~0.3 MB. */
export const PLAN_CACHE_BYTES = 4 * 1024 * 1024;
const PLAN_CACHE_ENTRIES = 256;
const COUNT_CACHE_ENTRIES = 1024;
const COUNT_CACHE_BYTES = 4 * 1024 * 1024;

export class SqlRecordStore implements RecordStore {
  private plans = new SizedLruCache<CachedPlan>(PLAN_CACHE_ENTRIES, PLAN_CACHE_BYTES, (p) => p.itemsSql.length + p.countSql.length);
  private counts = new SizedLruCache<number>(COUNT_CACHE_ENTRIES, COUNT_CACHE_BYTES, () => 0);
  private versions = new Map<number, number>();
  private countQueries = 0;
  /** Bumped when another instance wrote (engine.onForeignWrite): every cached count is stale. */
  private epoch = 0;

  private constructor(
    readonly engine: SqlEngine,
    readonly registry: TableRegistry,
  ) {
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

  createTable(def: TableDef, tx?: SqlTx): Promise<StoredTable> {
    return this.registry.create(def, tx);
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

  /** How many query shapes have compiled SQL cached, and their bytes (for tests). */
  get cachedPlans(): number {
    return this.plans.size;
  }

  get cachedPlanBytes(): number {
    return this.plans.bytes;
  }

  /** How many count queries this store has run (for tests of the count cache). */
  get countsRun(): number {
    return this.countQueries;
  }

  /** The SQL a query runs (items and count); also what the benchmark runs directly. */
  compileQuery(table: StoredTable, body: QueryBodyInput): Result<CompiledRead> {
    const dialect = this.engine.dialect;
    const filters = parseFilters([["filter", body.filter], ["addtionalFilter", body.addtionalFilter]]);
    if (!filters.ok) return filters;
    const tail = [body.limit ?? QUERY_LIMIT_DEFAULT, body.skip ?? 0];
    const shape = queryShape(table.id, body, filters.value);
    const cached = this.plans.get(shape);
    const tablesOf = (scope: Scope) => scope.sources.map((s) => s.table.id);
    if (cached) {
      const params = bindFilterValues(cached.scope, filters.value, dialect);
      if (!params.ok) return params;
      return ok({
        items: CompiledQuery.raw(cached.itemsSql, [...params.value, ...tail]),
        count: CompiledQuery.raw(cached.countSql, params.value),
        columns: cached.columns,
        tables: tablesOf(cached.scope),
        atMostOne: cached.atMostOne,
      });
    }
    const plan = planQuery(
      { kysely: this.engine.builder, dialect, maxHeight: dialect.maxHeight, lookup: (db, slug) => this.registry.get(db, slug) },
      table,
      body,
      filters.value,
    );
    if (!plan.ok) return plan;
    const { columns, scope, params, atMostOne } = plan.value;
    const items = plan.value.items.compile();
    const count = plan.value.count.compile();
    if (sameParams(items.parameters, [...params, ...tail]) && sameParams(count.parameters, params)) {
      this.plans.set(shape, { itemsSql: items.sql, countSql: count.sql, columns, scope, atMostOne });
    }
    return ok({ items, count, columns, tables: tablesOf(scope), atMostOne });
  }

  /** The SQL an update runs, after checking every value and the filter. */
  compileUpdate(table: StoredTable, body: UpdateBodyInput): Result<{ update: CompiledQuery; set: Record<string, unknown> }> {
    const dialect = this.engine.dialect;
    const scope = new Scope(table, false);
    const set: Record<string, unknown> = {};
    for (const [i, { key, value }] of body.values.entries()) {
      const where = `values[${i}]`;
      const field = table.byKey.get(key);
      if (!field) {
        const hint = key.includes(".") ? " (joined Fields cannot be updated through this table)" : "";
        return fail(
          "validation_error",
          `${where}.key: unknown Field ${quoteName(key)} in table ${table.databaseId}/${table.slug}${hint}. Known Fields: ${table.fields.map((f) => f.key).join(", ")}.`,
        );
      }
      if (key in set) return fail("validation_error", `${where}.key: Field "${key}" is set twice; set each Field once.`);
      const encoded = encodeWrite(field, value, where, key === table.primaryKey);
      if (!encoded.ok) return encoded;
      set[key] = encoded.value;
    }
    if (body.filter === undefined) {
      return fail("validation_error", 'filter is required: send {"and": []} to update every Record on purpose.');
    }
    const filters = parseFilters([["filter", body.filter]]);
    if (!filters.ok) return filters;
    const where = compileFilters(scope, filters.value, dialect, dialect.maxHeight);
    if (!where.ok) return where;
    let q = this.engine.builder.updateTable(table.physical).set(set);
    if (where.value.where) q = q.where(where.value.where);
    return ok({ update: q.compile(), set });
  }

  private countKey(tables: number[], count: CompiledQuery): string {
    return `${this.epoch}|${tables.map((id) => `${id}@${this.versions.get(id) ?? 0}`).join(",")}|${count.sql}|${JSON.stringify(count.parameters)}`;
  }

  async query(table: StoredTable, body: QueryBodyInput): Promise<Result<QueryResult>> {
    const compiled = this.compileQuery(table, body);
    if (!compiled.ok) return compiled;
    const { items: itemsQuery, count: countQuery, columns, tables, atMostOne } = compiled.value;
    const key = this.countKey(tables, countQuery);
    // Keys of huge filters are not worth keeping (and would crowd out the rest).
    const cacheable = key.length < 64 * 1024 && !atMostOne;
    // A first page of a primary-key lookup holds every match: its length is the count.
    const fromItems = atMostOne && (body.skip ?? 0) === 0 && (body.limit ?? QUERY_LIMIT_DEFAULT) > 0;
    const known = fromItems ? -1 : cacheable ? this.counts.get(key) : undefined;
    try {
      if (known === undefined) this.countQueries++;
      const results = await this.engine.read(known === undefined ? [itemsQuery, countQuery] : [itemsQuery]);
      const n = fromItems ? results[0].rows.length : (known ?? Number(results[1].rows[0]?.[0] ?? 0));
      if (known === undefined && cacheable) this.counts.set(key, n);
      const out: RecordRow[] = results[0].rows.map((row) => {
        const record: RecordRow = {};
        for (let i = 0; i < columns.length; i++) record[columns[i].key] = decode(columns[i].field.type, row[i]);
        return record;
      });
      return ok({ items: out, count: n });
    } catch (e) {
      return this.failure(e, table);
    }
  }

  async update(table: StoredTable, body: UpdateBodyInput): Promise<Result<{ matched: number }>> {
    const compiled = this.compileUpdate(table, body);
    if (!compiled.ok) return compiled;
    const { update, set } = compiled.value;
    try {
      // One statement in one transaction: all matching Records change or none.
      const matched = await this.engine.write(async (tx) => (await tx.run(update)).changes);
      if (matched > 0) this.touched(table);
      return ok({ matched });
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
    const state = stateFailure(kind);
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
    const n = outer ? await outer.append(table.physical, keys, batches()) : await this.engine.write((tx) => tx.append(table.physical, keys, batches()));
    this.touched(table);
    return n;
  }
}
