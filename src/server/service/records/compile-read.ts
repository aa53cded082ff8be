/**
 * The filter compiler's one door (issue 23 item 3): a query body → the SQL of its items and its
 * count. `compileRead` owns the whole way there: parsing the filters, the plan cache by query
 * shape (plan-cache.ts) and planning (query-plan.ts). `compileUpdate` is the same for an
 * update's SET and WHERE. The store above only runs what comes out and caches counts.
 *
 * Engine-neutral: everything that differs between databases is asked of the dialect.
 */
import { CompiledQuery, type Kysely, sql } from "kysely";
import { type Result, fail, ok } from "../../../shared/errors";
import { quoteName } from "../../../shared/filter";
import { QUERY_LIMIT_DEFAULT, type QueryBodyInput, type UpdateBodyInput } from "../../../shared/records";
import type { Dialect } from "../engines/engine";
import { bindFilterValues, type CachedPlan, SizedLruCache, queryShape, sameParams } from "./plan-cache";
import { BOUND_PLACEHOLDER, SAMPLE_PERCENT_PLACEHOLDER, compileFilters, type OutputColumn, parseFilters, pinsPrimaryKey, planQuery, Scope } from "./query-plan";
import type { StoredTable } from "./registry";
import { encodeWrite } from "./values";

/** The SQL of one query, compiled (what the store runs, and what the benchmark runs directly). */
export interface CompiledRead {
  items: CompiledQuery;
  /** The items in reverse order, for a page given as [skip, limit] of it (see `reversedPage`). */
  reversed?: (skip: number, limit: number) => CompiledQuery;
  count: CompiledQuery;
  /**
   * The page found within a bound on its first sort term (bounded-top-n.ts): `probe(k, percent)`
   * reads the k-th value of that term among the matches of a sample of about `percent`% of the
   * table, `page(t)` the page among the matches on t's side of it.
   */
  bounded?: { probe(k: number, percent: number): CompiledQuery; page(bound: unknown): CompiledQuery };
  /** The page [skip, skip + limit) found by numbering the matches' keys (QueryPlan.deep). */
  deep?: (skip: number, limit: number) => CompiledQuery;
  columns: OutputColumn[];
  /** Ids of the tables read (the count cache's versions). */
  tables: number[];
  /** At most one Record matches: a first page's length is its count. */
  atMostOne: boolean;
}

/** Compiled SQL kept at most (bytes of SQL text); a 5,000-condition plan is ~0.3 MB. */
export const PLAN_CACHE_BYTES = 4 * 1024 * 1024;
const PLAN_CACHE_ENTRIES = 256;

export interface CompilerContext {
  dialect: Dialect;
  /** Builds SQL only (never executes). */
  builder: Kysely<any>;
  /** A Table by name, for joins. */
  lookup(databaseId: string, slug: string): StoredTable | undefined;
}

const reversedOf = (sql: string, params: unknown[]): CompiledRead["reversed"] => (skip, limit) => CompiledQuery.raw(sql, [...params, limit, skip]);

const deepOf = (sql: string, params: unknown[]): CompiledRead["deep"] => (skip, limit) => CompiledQuery.raw(sql, [...params, skip, skip + limit]);

const boundedOf = (sql: { probe: [string, string]; page: string }, params: unknown[], tail: number[]): CompiledRead["bounded"] => ({
  probe: (k, percent) => CompiledQuery.raw(`${sql.probe[0]}${Math.min(100, Math.max(1, Math.ceil(percent)))}${sql.probe[1]}`, [...params, k]),
  page: (bound) => CompiledQuery.raw(sql.page, [...params, bound, ...tail]),
});

export class ReadCompiler {
  private plans = new SizedLruCache<CachedPlan>(PLAN_CACHE_ENTRIES, PLAN_CACHE_BYTES, (p) => p.itemsSql.length + (p.reversedSql?.length ?? 0) + (p.deepSql?.length ?? 0) + p.countSql.length);

  constructor(private readonly ctx: CompilerContext) {}

  /** How many query shapes have compiled SQL cached, and their bytes (for tests). */
  get cachedPlans(): number {
    return this.plans.size;
  }

  get cachedPlanBytes(): number {
    return this.plans.bytes;
  }

  compileRead(table: StoredTable, body: QueryBodyInput): Result<CompiledRead> {
    const { dialect } = this.ctx;
    const filters = parseFilters([["filter", body.filter], ["addtionalFilter", body.addtionalFilter]]);
    if (!filters.ok) return filters;
    const tail = [body.limit ?? QUERY_LIMIT_DEFAULT, body.skip ?? 0];
    const shape = queryShape(table.id, body, filters.value);
    const cached = this.plans.get(shape);
    const tablesOf = (scope: Scope) => scope.sources.map((s) => s.table.id);
    if (cached) {
      const params = bindFilterValues(cached.scope, filters.value, dialect);
      if (!params.ok) return params;
      const { reversedSql, boundedSql, deepSql } = cached;
      return ok({
        items: CompiledQuery.raw(cached.itemsSql, [...params.value, ...tail]),
        reversed: reversedSql ? reversedOf(reversedSql, params.value) : undefined,
        deep: deepSql ? deepOf(deepSql, params.value) : undefined,
        bounded: boundedSql ? boundedOf(boundedSql, params.value, tail) : undefined,
        count: CompiledQuery.raw(cached.countSql, params.value),
        columns: cached.columns,
        tables: tablesOf(cached.scope),
        atMostOne: cached.atMostOne,
      });
    }
    const plan = planQuery(
      { kysely: this.ctx.builder, dialect, maxHeight: dialect.maxHeight, lookup: this.ctx.lookup },
      table,
      body,
      filters.value,
    );
    if (!plan.ok) return plan;
    const { columns, scope, params, atMostOne } = plan.value;
    const items = plan.value.items.compile();
    const count = plan.value.count.compile();
    const reversedSql = plan.value.reversed?.compile().sql;
    // Offered only when its values bind where expected: the filters', then k (probe) or T, limit, skip (page).
    const probe = plan.value.bounded?.probe.compile();
    const page = plan.value.bounded?.page.compile();
    const sample = probe?.sql.split(` tablesample ${SAMPLE_PERCENT_PLACEHOLDER}% `);
    const boundedSql =
      probe && page && sample?.length === 2 && sameParams(probe.parameters, [...params, 1]) && sameParams(page.parameters, [...params, BOUND_PLACEHOLDER, ...tail])
        ? { probe: [`${sample[0]} tablesample `, `% ${sample[1]}`] as [string, string], page: page.sql }
        : undefined;
    // Offered only when its values bind where expected: the filters', then skip and skip + limit.
    const deepQuery = plan.value.deep?.compile();
    const skip = body.skip ?? 0;
    const deepSql = deepQuery && sameParams(deepQuery.parameters, [...params, skip, skip + (body.limit ?? QUERY_LIMIT_DEFAULT)]) ? deepQuery.sql : undefined;
    if (sameParams(items.parameters, [...params, ...tail]) && sameParams(count.parameters, params)) {
      this.plans.set(shape, { itemsSql: items.sql, reversedSql, boundedSql, deepSql, countSql: count.sql, columns, scope, atMostOne });
    }
    const reversed = reversedSql ? reversedOf(reversedSql, params) : undefined;
    const bounded = boundedSql ? boundedOf(boundedSql, params, tail) : undefined;
    const deep = deepSql ? deepOf(deepSql, params) : undefined;
    return ok({ items, reversed, count, bounded, deep, columns, tables: tablesOf(scope), atMostOne });
  }

  /**
   * An update's SET and WHERE; with `beforeImages`, also the read of what it will overwrite (the
   * primary key and the Fields being set of at most that many matching Records, in no particular
   * order: sorting cost 0.4 ms of a 2 ms update), run by the store in the update's own
   * transaction: as rows when the filter pins the primary key, else as one row holding them as
   * JSON (Dialect.jsonRows).
   */
  compileUpdate(
    table: StoredTable,
    body: UpdateBodyInput,
    beforeImages?: number,
  ): Result<{ update: CompiledQuery; set: Record<string, unknown>; before?: { query: CompiledQuery; pin: CompiledQuery; keys: string[]; atMostOne: boolean } }> {
    const { dialect } = this.ctx;
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
    let q = this.ctx.builder.updateTable(table.physical).set(set);
    if (where.value.where) q = q.where(where.value.where);
    if (beforeImages === undefined) return ok({ update: q.compile(), set });
    const keys = [table.primaryKey, ...Object.keys(set).filter((k) => k !== table.primaryKey)];
    // A filter that pins the primary key matches one Record at most: no LIMIT to keep.
    const atMostOne = pinsPrimaryKey(filters.value, table.primaryKey);
    // Reads the table and nothing of it: where the read runs in a transaction of its own, this
    // takes that transaction's snapshot.
    const pin = this.ctx.builder.selectFrom(table.physical).select(sql.lit(1).as("one")).limit(sql.lit(0)).compile();
    const matching = () => {
      let read = this.ctx.builder.selectFrom(table.physical);
      if (where.value.where) read = read.where(where.value.where);
      return read;
    };
    // One Record is read as a row (an aggregate's planning cost 0.3 ms more); more as JSON the engine writes.
    if (atMostOne) {
      const read = matching().select(keys);
      return ok({ update: q.compile(), set, before: { query: (dialect.lockRowsForUpdate ? read.forUpdate() : read).compile(), pin, keys, atMostOne } });
    }
    const columns = keys.map((k) => ({ ref: sql.ref(k), json: table.byKey.get(k)!.type === "json" }));
    let rows = matching().select(dialect.jsonRow(columns).as("j")).limit(beforeImages);
    if (dialect.lockRowsForUpdate) rows = rows.forUpdate();
    const images = this.ctx.builder.selectFrom(rows.as("b")).select(dialect.jsonArrayOf(sql.ref("b.j")).as("rows"));
    return ok({ update: q.compile(), set, before: { query: images.compile(), pin, keys, atMostOne } });
  }
}
