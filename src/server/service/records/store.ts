/**
 * The Record store: query, update and field listing over the table registry. SQL is built with
 * Kysely (query-plan.ts) and run through better-sqlite3 prepared statements (cached by SQL
 * text), synchronously, so a query's items and count read the same snapshot.
 * A PostgreSQL store would implement the same RecordStore interface with the same plans.
 */
import type Database from "better-sqlite3";
import { CompiledQuery, type Kysely, sql } from "kysely";
import { type Result, fail, ok } from "../../../shared/errors";
import { quoteName } from "../../../shared/filter";
import { type FieldInfo, QUERY_LIMIT_DEFAULT, type QueryBodyInput, type QueryResult, type RecordRow, type UpdateBodyInput } from "../../../shared/records";
import type { Sqlite } from "../db";
import type { SqlDialectOps } from "./filter-condition";
import { bindFilterValues, type CachedPlan, LruCache, queryShape, sameParams } from "./plan-cache";
import { compileFilters, type OutputColumn, parseFilters, planQuery, Scope } from "./query-plan";
import { fieldInfo, type StoredTable, type TableDef, TableRegistry } from "./registry";
import { decode, encodeTrusted, encodeWrite } from "./values";

export interface RecordStore {
  table(databaseId: string, slug: string): StoredTable | undefined;
  tables(): StoredTable[];
  fields(table: StoredTable): FieldInfo[];
  query(table: StoredTable, body: QueryBodyInput): Result<QueryResult>;
  /** Returns how many Records matched (and were updated). */
  update(table: StoredTable, body: UpdateBodyInput): Result<{ matched: number }>;
}

/** SQLite's expression-depth limit is 1000; keep a margin for the surrounding statement. */
export const SQLITE_MAX_HEIGHT = 800;
const STATEMENT_CACHE = 256;

const sqliteDialect: SqlDialectOps = {
  fold: (expr) => sql`bb_fold(${expr})`,
  bool: (v) => (v ? 1 : 0),
};

function depthError(e: unknown): Result<never> | undefined {
  const msg = (e as Error).message ?? "";
  if (/Expression tree is too large|Recursion limit|parser stack overflow/i.test(msg)) {
    return fail("validation_error", `The filter is nested too deeply for the database (${msg}). Flatten or simplify it.`);
  }
  if (/too many SQL variables/i.test(msg)) {
    return fail("validation_error", "The filter has too many conditions for one query. Split it or use fewer conditions.");
  }
  return undefined;
}

export class SqliteRecordStore implements RecordStore {
  readonly registry: TableRegistry;
  private statements = new LruCache<Database.Statement>(STATEMENT_CACHE);
  private plans = new LruCache<CachedPlan>(STATEMENT_CACHE);

  constructor(
    private readonly sqlite: Sqlite,
    private readonly kysely: Kysely<any>,
  ) {
    this.registry = new TableRegistry(sqlite, kysely);
    sqlite.function("bb_fold", { deterministic: true }, (s: unknown) => (s === null ? null : String(s).toLowerCase()));
  }

  table(databaseId: string, slug: string) {
    return this.registry.get(databaseId, slug);
  }

  tables() {
    return this.registry.list();
  }

  createTable(def: TableDef): StoredTable {
    return this.registry.create(def);
  }

  fields(table: StoredTable): FieldInfo[] {
    return fieldInfo(table);
  }

  private prepare(text: string): Database.Statement {
    let stmt = this.statements.get(text);
    if (!stmt) {
      stmt = this.sqlite.prepare(text);
      this.statements.set(text, stmt);
    }
    return stmt;
  }

  /** How many query shapes have compiled SQL cached (for tests). */
  get cachedPlans(): number {
    return this.plans.size;
  }

  /** The SQL a query runs (items and count); also what the benchmark runs directly. */
  compileQuery(table: StoredTable, body: QueryBodyInput): Result<{ items: CompiledQuery; count: CompiledQuery; columns: OutputColumn[] }> {
    const filters = parseFilters([["filter", body.filter], ["addtionalFilter", body.addtionalFilter]]);
    if (!filters.ok) return filters;
    const tail = [body.limit ?? QUERY_LIMIT_DEFAULT, body.skip ?? 0];
    const shape = queryShape(table.id, body, filters.value);
    const cached = this.plans.get(shape);
    if (cached) {
      const params = bindFilterValues(cached.scope, filters.value, sqliteDialect);
      if (!params.ok) return params;
      return ok({
        items: CompiledQuery.raw(cached.itemsSql, [...params.value, ...tail]),
        count: CompiledQuery.raw(cached.countSql, params.value),
        columns: cached.columns,
      });
    }
    const plan = planQuery(
      { kysely: this.kysely, dialect: sqliteDialect, maxHeight: SQLITE_MAX_HEIGHT, lookup: (db, slug) => this.table(db, slug) },
      table,
      body,
      filters.value,
    );
    if (!plan.ok) return plan;
    const { columns, scope, params } = plan.value;
    const items = plan.value.items.compile();
    const count = plan.value.count.compile();
    if (sameParams(items.parameters, [...params, ...tail]) && sameParams(count.parameters, params)) {
      this.plans.set(shape, { itemsSql: items.sql, countSql: count.sql, columns, scope });
    }
    return ok({ items, count, columns });
  }

  /** The SQL an update runs, after checking every value and the filter. */
  compileUpdate(table: StoredTable, body: UpdateBodyInput): Result<{ update: CompiledQuery; set: Record<string, unknown> }> {
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
    const where = compileFilters(scope, filters.value, sqliteDialect, SQLITE_MAX_HEIGHT);
    if (!where.ok) return where;
    let q = this.kysely.updateTable(table.physical).set(set);
    if (where.value.where) q = q.where(where.value.where);
    return ok({ update: q.compile(), set });
  }

  query(table: StoredTable, body: QueryBodyInput): Result<QueryResult> {
    const compiled = this.compileQuery(table, body);
    if (!compiled.ok) return compiled;
    const { items: itemsQuery, count: countQuery, columns } = compiled.value;
    try {
      const read = this.sqlite.transaction(() => {
        const rows = this.prepare(itemsQuery.sql)
          .raw(true)
          .all(...itemsQuery.parameters) as unknown[][];
        const n = (this.prepare(countQuery.sql).pluck(true).get(...countQuery.parameters) as number) ?? 0;
        return { rows, n };
      });
      const { rows, n } = read();
      const out: RecordRow[] = rows.map((row) => {
        const record: RecordRow = {};
        for (let i = 0; i < columns.length; i++) record[columns[i].key] = decode(columns[i].field.type, row[i]);
        return record;
      });
      return ok({ items: out, count: n });
    } catch (e) {
      const known = depthError(e);
      if (known) return known;
      throw e;
    }
  }

  update(table: StoredTable, body: UpdateBodyInput): Result<{ matched: number }> {
    const compiled = this.compileUpdate(table, body);
    if (!compiled.ok) return compiled;
    const { update, set } = compiled.value;
    try {
      // One statement, inside an immediate transaction: all matching Records change or none.
      const run = this.sqlite.transaction(() => this.prepare(update.sql).run(...update.parameters));
      const info = run.immediate();
      return ok({ matched: info.changes });
    } catch (e) {
      const code = (e as { code?: string }).code ?? "";
      if (code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE") {
        const pk = table.primaryKey;
        return fail(
          "conflict",
          `Setting "${pk}" would give two Records the same primary key (${JSON.stringify(set[pk])}); nothing was written.`,
        );
      }
      if (code === "SQLITE_CONSTRAINT_NOTNULL") {
        return fail("validation_error", `A Field that cannot be null would become null; nothing was written.`);
      }
      const known = depthError(e);
      if (known) return known;
      throw e;
    }
  }
}

/** Inserts trusted rows (seed data, benchmark data) in one transaction, with one statement. */
export function insertRows(sqlite: Sqlite, kysely: Kysely<any>, table: StoredTable, rows: Iterable<RecordRow>): number {
  const keys = table.fields.map((f) => f.key);
  const text = kysely
    .insertInto(table.physical)
    .values(Object.fromEntries(keys.map((k) => [k, null])))
    .compile().sql;
  const stmt = sqlite.prepare(text);
  let n = 0;
  sqlite.transaction(() => {
    for (const row of rows) {
      stmt.run(...table.fields.map((f) => encodeTrusted(f.type, row[f.key] ?? null)));
      n++;
    }
  })();
  return n;
}
