/**
 * A query body (interface §4.1, decisions §4) → Kysely queries for the items and the count.
 * Resolves every name (select, join rules, filter keys, sort keys) against the base table and
 * the joined ones; joined Fields are named "<targetTable>.<field>". Pure apart from reading
 * table definitions through `lookup`.
 */
import { type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import { type Result, fail, ok } from "../../../shared/errors";
import { type ParsedFilter, type ParsedNode, parseFilter } from "../../../shared/filter-parse";
import { quoteName } from "../../../shared/filter";
import { joinKeyProblem, QUERY_LIMIT_DEFAULT, type QueryBodyInput } from "../../../shared/records";
import type { Dialect } from "../engines/engine";
import { conditionSql, type ResolvedField } from "./filter-condition";
import { andAll, type CompiledFilter, compileFilter } from "./filter-sql";
import type { FieldDef, StoredTable } from "./registry";

export interface OutputColumn {
  key: string;
  field: FieldDef;
}

export interface QueryPlan {
  items: SelectQueryBuilder<any, any, any>;
  /**
   * The same items in the opposite order (every sort term and tie-break reversed, nulls too),
   * limit and offset bound the same way: a page near the end is the reversed query's page near
   * its start (see `reversedPage`). Undefined when at most one Record matches.
   */
  reversed?: SelectQueryBuilder<any, any, any>;
  count: SelectQueryBuilder<any, any, any>;
  /**
   * A first page found with a bound on its first sort term (see `BoundedTopN`), where the
   * engine can sample (Dialect.sampleFrom), nothing is joined and that term sorts a column.
   */
  bounded?: { probe: SelectQueryBuilder<any, any, any>; page: SelectQueryBuilder<any, any, any> };
  /**
   * The page found by numbering the matches' primary keys in order (a window), then reading
   * those rows (Dialect.deepPagesByKeys, unjoined tables): bound by skip, then skip + limit.
   */
  deep?: SelectQueryBuilder<any, any, any>;
  columns: OutputColumn[];
  scope: Scope;
  /** Values bound by the filters, in order (before limit and offset). */
  params: unknown[];
  /** The filters pin the primary key of an unjoined table: at most one Record matches. */
  atMostOne: boolean;
}

export interface PlanContext {
  kysely: Kysely<any>;
  dialect: Dialect;
  maxHeight: number;
  lookup(databaseId: string, slug: string): StoredTable | undefined;
}

interface Source {
  alias: string;
  table: StoredTable;
  /** "" for the base table, "<targetTable>." for a joined one. */
  prefix: string;
}

/** Name → column, for the base table alone (updates) or base plus joins (queries). */
export class Scope {
  readonly sources: Source[] = [];
  private readonly names = new Map<string, ResolvedField>();

  constructor(
    base: StoredTable,
    private readonly qualify: boolean,
  ) {
    this.add(base, "");
  }

  add(table: StoredTable, prefix: string): Source {
    const alias = `t${this.sources.length}`;
    const source = { alias, table, prefix };
    this.sources.push(source);
    // A joined table's columns are null where its left join found no match, whatever the Field.
    const base = this.sources.length === 1;
    for (const field of table.fields) {
      const ref = this.qualify ? sql.id(alias, field.key) : sql.id(field.key);
      const neverNull = base && (field.key === table.primaryKey || !field.nullable);
      this.names.set(prefix + field.key, { ref, field, name: prefix + field.key, neverNull });
    }
    return source;
  }

  resolve(name: string): ResolvedField | undefined {
    return this.names.get(name);
  }

  all(): ResolvedField[] {
    return [...this.names.values()];
  }

  unknown(name: string, where: string): Result<never> {
    const base = this.sources[0].table;
    const hint = name.includes(".") && this.sources.length === 1 ? " (joined Fields need a join of that table)" : "";
    return fail(
      "validation_error",
      `${where}: unknown Field ${quoteName(name)} in table ${base.databaseId}/${base.slug}${hint}. Known Fields: ${this.all()
        .map((f) => f.name)
        .join(", ")}.`,
    );
  }
}

/**
 * SQLite plans a WHERE clause in time that grows faster than linearly with its terms
 * (5,000 conditions: ~0.2 s; 20,000: ~5 s), so one request may hold at most this many.
 */
export const MAX_CONDITIONS = 5000;
/** Bound where `bounded` takes a value chosen per query (k, then T); replaced when bound. */
export const BOUND_PLACEHOLDER = "";
/** The sample's percentage as planned (a constant in the SQL): compile-read.ts puts the one chosen in its place. */
export const SAMPLE_PERCENT_PLACEHOLDER = 1;

export interface NamedFilter {
  /** The body property it came from (filter, addtionalFilter), for messages. */
  name: string;
  parsed: ParsedFilter;
}

/** Parses `filter`-like body properties (absent ones are skipped), within the condition limit. */
export function parseFilters(entries: [name: string, raw: unknown][]): Result<NamedFilter[]> {
  const out: NamedFilter[] = [];
  let conditions = 0;
  for (const [name, raw] of entries) {
    if (raw === undefined) continue;
    const parsed = parseFilter(raw, name);
    if (!parsed.ok) return parsed;
    conditions += parsed.value.conditions;
    if (conditions > MAX_CONDITIONS) {
      return fail(
        "validation_error",
        `The filters hold ${conditions.toLocaleString("en-US")}+ conditions; at most ${MAX_CONDITIONS.toLocaleString("en-US")} are evaluated per request. Split the request or use fewer conditions.`,
      );
    }
    out.push({ name, parsed: parsed.value });
  }
  return ok(out);
}

/** Compiles parsed filters against a scope into one WHERE expression (ANDed) and its values. */
export function compileFilters(
  scope: Scope,
  filters: NamedFilter[],
  dialect: Dialect,
  maxHeight: number,
): Result<{ where: RawBuilder<SqlBool> | undefined; params: unknown[] }> {
  const compiled: CompiledFilter[] = [];
  for (const { name, parsed } of filters) {
    const result = compileFilter(parsed, {
      name,
      maxHeight: maxHeight - 1,
      condition: (c) => {
        const field = scope.resolve(c.key);
        if (!field) return scope.unknown(c.key, c.path);
        return conditionSql(field, c, dialect);
      },
    });
    if (!result.ok) return result;
    compiled.push(result.value);
  }
  return ok(andAll(compiled));
}

/**
 * Whether the ANDed filters require `primaryKey = value` (a condition at the top, or directly
 * in a top-level `and`): then at most one Record matches, no order is needed (an ORDER BY would
 * also keep engines such as DuckDB from using the primary-key index) and the count of a first
 * page is the number of items.
 */
export function pinsPrimaryKey(filters: NamedFilter[], primaryKey: string): boolean {
  const pins = (n: ParsedNode) => n.kind === "condition" && n.key === primaryKey && n.operator === "equal" && n.value !== null && n.value !== undefined;
  return filters.some(({ parsed: { root } }) => pins(root) || (root.kind === "group" && root.op === "and" && root.children.some(pins)));
}

export function planQuery(ctx: PlanContext, base: StoredTable, body: QueryBodyInput, filters: NamedFilter[]): Result<QueryPlan> {
  const scope = new Scope(base, true);
  const joins: { source: Source; on: [ResolvedField, ResolvedField][] }[] = [];
  const joined = new Set<string>();
  for (const [i, j] of (body.join ?? []).entries()) {
    const where = `join[${i}]`;
    const target = ctx.lookup(base.databaseId, j.targetTable);
    if (!target) return fail("validation_error", `${where}: no table ${quoteName(j.targetTable)} in database ${base.databaseId}.`);
    if (joined.has(j.targetTable)) return fail("validation_error", `${where}: table "${j.targetTable}" is joined twice; join each table once.`);
    joined.add(j.targetTable);
    const left: ResolvedField[] = [];
    for (const [r, rule] of j.rules.entries()) {
      const f = scope.resolve(rule.tableKey);
      if (!f) return scope.unknown(rule.tableKey, `${where}.rules[${r}].tableKey`);
      left.push(f);
    }
    const source = scope.add(target, `${j.targetTable}.`);
    const on: [ResolvedField, ResolvedField][] = [];
    for (const [r, rule] of j.rules.entries()) {
      const right = target.byKey.get(rule.targetTableKey);
      if (!right) {
        return fail(
          "validation_error",
          `${where}.rules[${r}].targetTableKey: unknown Field ${quoteName(rule.targetTableKey)} in table ${base.databaseId}/${target.slug}.`,
        );
      }
      const mismatch = joinKeyProblem(left[r].field.type, right.type);
      if (mismatch) {
        return fail("validation_error", `${where}.rules[${r}]: ${quoteName(rule.tableKey)} (${left[r].field.type}) and ${quoteName(`${j.targetTable}.${right.key}`)} (${right.type}) ${mismatch}`);
      }
      on.push([left[r], scope.resolve(`${j.targetTable}.${right.key}`)!]);
    }
    joins.push({ source, on });
  }

  const columns: (OutputColumn & { ref: RawBuilder<unknown> })[] = [];
  const select = body.select && body.select.length > 0 ? body.select : ["*"];
  for (const [i, name] of select.entries()) {
    if (name === "*") {
      for (const f of scope.all()) columns.push({ key: f.name, field: f.field, ref: f.ref });
      continue;
    }
    const f = scope.resolve(name);
    if (!f) return scope.unknown(name, `select[${i}]`);
    columns.push({ key: name, field: f.field, ref: f.ref });
  }
  // A name selected twice (e.g. "*" plus "age") is returned once, at its first place.
  const seen = new Set<string>();
  const unique = columns.filter((c) => !seen.has(c.key) && seen.add(c.key));

  const where = compileFilters(scope, filters, ctx.dialect, ctx.maxHeight);
  if (!where.ok) return where;

  const order: RawBuilder<unknown>[] = [];
  const reverse: RawBuilder<unknown>[] = [];
  let first: { f: ResolvedField; descending: boolean } | undefined;
  // A Field sorted on again cannot change the order (its first mention decides), and SQLite
  // refuses more than 2,000 ORDER BY terms: later mentions are dropped.
  const sorted = new Set<string>();
  for (const [prop, units] of [["sort", body.sort], ["additionalSort", body.additionalSort]] as const) {
    for (const [i, unit] of (units ?? []).entries()) {
      const f = scope.resolve(unit.key);
      if (!f) return scope.unknown(unit.key, `${prop}[${i}].key`);
      if (sorted.has(f.name)) continue;
      sorted.add(f.name);
      first ??= { f, descending: unit.direction === "descending" };
      // Null sorts before every value ascending (and so after every value descending).
      order.push(unit.direction === "descending" ? sql`${f.ref} desc nulls last` : sql`${f.ref} asc nulls first`);
      reverse.push(unit.direction === "descending" ? sql`${f.ref} asc nulls first` : sql`${f.ref} desc nulls last`);
    }
  }
  // Primary keys break ties so that paging with skip is stable.
  // (A joined primary key is null where the left join found no match: null first, as above.)
  for (const [i, s] of scope.sources.entries()) {
    const pk = sql.id(s.alias, s.table.primaryKey);
    order.push(i === 0 ? sql`${pk} asc` : sql`${pk} asc nulls first`);
    reverse.push(i === 0 ? sql`${pk} desc` : sql`${pk} desc nulls last`);
  }

  let from = ctx.kysely.selectFrom(`${base.physical} as t0`);
  for (const { source, on } of joins) {
    from = from.leftJoin(`${source.table.physical} as ${source.alias}`, (jb) =>
      jb.on(sql<SqlBool>`${sql.join(on.map(([l, r]) => sql`${l.ref} = ${r.ref}`), sql.raw(" and "))}`),
    );
  }
  if (where.value.where) from = from.where(where.value.where);
  const atMostOne = joins.length === 0 && pinsPrimaryKey(filters, base.primaryKey);
  const selected = from.select(unique.map((c, i) => c.ref.as(`c${i}`)));
  const page = (terms: RawBuilder<unknown>[]) => {
    let q = selected;
    for (const o of terms) q = q.orderBy(o);
    return q.limit(body.limit ?? QUERY_LIMIT_DEFAULT).offset(body.skip ?? 0);
  };
  const items = page(atMostOne ? [] : order);
  const reversed = atMostOne ? undefined : page(reverse);
  const count = from.select(sql<number>`count(*)`.as("n"));
  let bounded: QueryPlan["bounded"];
  if (first && !atMostOne && joins.length === 0 && ctx.dialect.sampleFrom && first.f.field.type !== "boolean") {
    const { f, descending } = first;
    // The first term's own order, nulls placed as in `order`: the probe's k-th value is T.
    const term = descending ? sql`${f.ref} desc nulls last` : sql`${f.ref} asc nulls first`;
    let probe = ctx.kysely.selectFrom(ctx.dialect.sampleFrom(base.physical, "t0", SAMPLE_PERCENT_PLACEHOLDER) as any).select(f.ref.as("c0"));
    if (where.value.where) probe = probe.where(where.value.where);
    // The placeholders (k, T) are bound anew each time (compile-read.ts).
    const kept = descending ? sql<SqlBool>`${f.ref} >= ${BOUND_PLACEHOLDER}` : sql<SqlBool>`(${f.ref} is null or ${f.ref} <= ${BOUND_PLACEHOLDER})`;
    let within = selected.where(kept);
    for (const o of order) within = within.orderBy(o);
    bounded = { probe: probe.orderBy(term).limit(1), page: within.limit(body.limit ?? QUERY_LIMIT_DEFAULT).offset(body.skip ?? 0) };
  }
  let deep: QueryPlan["deep"];
  if (!atMostOne && joins.length === 0 && ctx.dialect.deepPagesByKeys) {
    const pk = base.primaryKey;
    const skip = body.skip ?? 0;
    const numbered = from.select([sql.id("t0", pk).as("k"), sql<number>`row_number() over (order by ${sql.join(order)})`.as("rn")]);
    deep = ctx.kysely
      .selectFrom(`${base.physical} as t0`)
      .innerJoin(numbered.as("p"), (jb) => jb.on(sql<SqlBool>`${sql.id("p", "k")} = ${sql.id("t0", pk)}`))
      .select(unique.map((c, i) => c.ref.as(`c${i}`)))
      .where(sql<SqlBool>`${sql.id("p", "rn")} > ${skip} and ${sql.id("p", "rn")} <= ${skip + (body.limit ?? QUERY_LIMIT_DEFAULT)}`)
      .orderBy(sql.id("p", "rn"));
  }
  return ok({ items, reversed, count, bounded, deep, columns: unique.map(({ key, field }) => ({ key, field })), scope, params: where.value.params, atMostOne });
}

/**
 * Where a page lies in the reversed order: the page [skip, skip + limit) of `count` Records is
 * the reversed query's [count − end, count − skip) read backwards, end = min(skip + limit, count).
 */
export function reversedPage(skip: number, limit: number, count: number): { skip: number; limit: number } {
  const end = Math.min(skip + limit, count);
  return { skip: Math.max(count - end, 0), limit: Math.max(end - skip, 0) };
}
