/**
 * The pure filter → SQL compiler: a parsed, flattened filter tree (shared/filter-parse.ts) →
 * one Kysely expression with every value bound.
 *
 * Two things keep arbitrary nesting safe:
 * - the tree is walked with explicit stacks, and the SQL is emitted as one flat list of
 *   fragments joined together, so neither our code nor Kysely's compiler recurses per level;
 * - each group's children are combined as a balanced binary tree of AND/OR, so a group of n
 *   conditions adds log2(n) to the expression height, not n. Whatever height remains is
 *   compared with the backend's limit (SQLite: 1000) and refused with a 400 naming the depth.
 */
import { type RawBuilder, type SqlBool, sql } from "kysely";
import { type Result, fail, ok } from "../../../shared/errors";
import type { ParsedCondition, ParsedFilter, ParsedGroup, ParsedNode } from "../../../shared/filter-parse";
import type { ConditionSql } from "./filter-condition";

export interface CompileOptions {
  /** Translates one condition (resolves its Field, checks operator and value). */
  condition(c: ParsedCondition): Result<ConditionSql>;
  /** Largest expression height the backend evaluates. */
  maxHeight: number;
  /** Name of the body property, for messages. */
  name: string;
}

const TRUE = sql.raw<SqlBool>("1 = 1");
const FALSE = sql.raw<SqlBool>("1 = 0");
const OPEN = sql.raw("(");
const CLOSE = sql.raw(")");
const AND = sql.raw(" and ");
const OR = sql.raw(" or ");

type Task = RawBuilder<unknown> | ParsedNode | { group: ParsedGroup; lo: number; hi: number };

function isRange(t: Task): t is { group: ParsedGroup; lo: number; hi: number } {
  return "group" in t && "lo" in t;
}

function isNode(t: Task): t is ParsedNode {
  return "kind" in t;
}

export interface CompiledFilter {
  sql: RawBuilder<SqlBool>;
  /** Bound values in the order they appear in the SQL. */
  params: unknown[];
  height: number;
}

export function compileFilter(filter: ParsedFilter, options: CompileOptions): Result<CompiledFilter> {
  // Pass 1: translate every condition (all errors are reported before any depth error).
  const conditionSqls = new Map<ParsedCondition, ConditionSql>();
  // Depth-first, left to right: the order in which pass 3 emits conditions, so their values.
  const params: unknown[] = [];
  const groups: ParsedGroup[] = [];
  const walk: ParsedNode[] = [filter.root];
  while (walk.length > 0) {
    const node = walk.pop()!;
    if (node.kind === "group") {
      groups.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) walk.push(node.children[i]);
    } else {
      const translated = options.condition(node);
      if (!translated.ok) return translated;
      conditionSqls.set(node, translated.value);
      for (const p of translated.value.params) params.push(p);
    }
  }
  // Pass 2: heights, children before parents (groups were collected parents first).
  const heights = new Map<ParsedNode, number>();
  const heightOf = (n: ParsedNode) => (n.kind === "group" ? heights.get(n)! : conditionSqls.get(n)!.height);
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i];
    let max = 0;
    for (const c of g.children) max = Math.max(max, heightOf(c));
    heights.set(g, g.children.length <= 1 ? Math.max(max, 1) : max + Math.ceil(Math.log2(g.children.length)));
  }
  const height = heightOf(filter.root);
  if (height > options.maxHeight) {
    return fail(
      "validation_error",
      // Plain digits (no thousands separator), so the depth reads the same as the client counted it.
      `${options.name} nesting depth ${filter.depth} is too deep to evaluate: that is what is left after flattening single-element groups and groups inside a group of the same kind (as sent: depth ${filter.rawDepth}), and this service evaluates at most about ${options.maxHeight - 4} levels of alternating and/or groups. Simplify the filter.`,
    );
  }
  // Pass 3: emit a flat fragment list.
  const parts: RawBuilder<unknown>[] = [];
  const tasks: Task[] = [filter.root];
  while (tasks.length > 0) {
    const t = tasks.pop()!;
    if (isRange(t)) {
      const { group, lo, hi } = t;
      if (hi - lo === 1) {
        tasks.push(group.children[lo]);
        continue;
      }
      const mid = (lo + hi) >> 1;
      tasks.push(CLOSE, { group, lo: mid, hi }, group.op === "and" ? AND : OR, { group, lo, hi: mid }, OPEN);
    } else if (isNode(t)) {
      if (t.kind === "condition") parts.push(conditionSqls.get(t)!.sql);
      else if (t.children.length === 0) parts.push(t.op === "and" ? TRUE : FALSE);
      else tasks.push({ group: t, lo: 0, hi: t.children.length });
    } else {
      parts.push(t);
    }
  }
  return ok({ sql: sql.join<SqlBool>(parts, sql.raw("")), params, height });
}

/** ANDs compiled filters (filter and addtionalFilter) into one WHERE expression. */
export function andAll(filters: CompiledFilter[]): { where: RawBuilder<SqlBool> | undefined; params: unknown[] } {
  const params = filters.flatMap((f) => f.params);
  if (filters.length === 0) return { where: undefined, params };
  if (filters.length === 1) return { where: filters[0].sql, params };
  return { where: sql<SqlBool>`(${sql.join(filters.map((f) => sql`(${f.sql})`), AND)})`, params };
}
