/**
 * A cache of compiled query SQL by the query's shape: everything but the filter values (and
 * limit/skip, which are bound last). Building and compiling a Kysely query costs more than a
 * primary-key lookup itself, and an admin grid repeats the same shapes with new values.
 *
 * A hit still parses the filters and checks every condition's value against its Field (the
 * same conditionSql as a miss), so errors and coercions are identical; only the SQL text is
 * reused. A plan is cached only after checking that its compiled parameters are exactly the
 * filter values followed by limit and offset, so the rebinding below cannot drift from it.
 */
import type { Result } from "../../../shared/errors";
import type { ParsedCondition, ParsedNode } from "../../../shared/filter-parse";
import type { QueryBodyInput } from "../../../shared/records";
import type { Dialect } from "../engines/engine";
import { conditionSql } from "./filter-condition";
import type { NamedFilter, OutputColumn, Scope } from "./query-plan";

export interface CachedPlan {
  itemsSql: string;
  /** The items in reverse order (query-plan.ts, `reversed`), when there is an order. */
  reversedSql?: string;
  /** The bounded first page's probe (split where its sample's percentage goes) and page (query-plan.ts, `bounded`). */
  boundedSql?: { probe: [string, string]; page: string };
  /** A deep page by its keys' numbers (query-plan.ts, `deep`). */
  deepSql?: string;
  countSql: string;
  columns: OutputColumn[];
  scope: Scope;
  atMostOne: boolean;
}

/** Conditions depth-first, left to right: the order their values are bound in. */
function* conditionsInOrder(root: ParsedNode): Generator<ParsedCondition> {
  const stack: ParsedNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === "condition") yield node;
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
}

/** What determines the SQL text; a condition's value matters only as absent, null or present. */
export function queryShape(tableId: number, body: QueryBodyInput, filters: NamedFilter[]): string {
  const parts: string[] = [String(tableId), JSON.stringify([body.select, body.join, body.sort, body.additionalSort])];
  for (const { name, parsed } of filters) {
    parts.push(`|${name}:`);
    const stack: (ParsedNode | string)[] = [parsed.root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (typeof node === "string") parts.push(node);
      else if (node.kind === "condition") {
        const tag = node.value === undefined ? "u" : node.value === null ? "n" : "v";
        parts.push(`${JSON.stringify(node.key)}${node.operator}:${tag},`);
      } else {
        parts.push(`${node.op}(`);
        stack.push(")");
        for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
      }
    }
  }
  return parts.join("");
}

/** Checks and coerces every condition's value again, in binding order. */
export function bindFilterValues(scope: Scope, filters: NamedFilter[], dialect: Dialect): Result<unknown[]> {
  const params: unknown[] = [];
  for (const { parsed } of filters) {
    for (const c of conditionsInOrder(parsed.root)) {
      const field = scope.resolve(c.key);
      if (!field) return scope.unknown(c.key, c.path);
      const translated = conditionSql(field, c, dialect);
      if (!translated.ok) return translated;
      for (const p of translated.value.params) params.push(p);
    }
  }
  return { ok: true, value: params };
}

export function sameParams(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

/**
 * Least recently used eviction over a Map's insertion order, bounded both by entry count and by
 * the bytes its values hold (issue 9 item 7: a few 5,000-condition plans must not take the
 * process to hundreds of MB). A value larger than a quarter of the budget is not kept at all.
 */
export class SizedLruCache<V> {
  private readonly map = new Map<string, { value: V; size: number }>();
  private total = 0;
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly sizeOf: (v: V) => number,
  ) {}
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (e !== undefined) {
      this.map.delete(key);
      this.map.set(key, e);
    }
    return e?.value;
  }
  set(key: string, value: V): void {
    this.delete(key);
    // The key is held too (query shapes can be as long as the SQL).
    const size = this.sizeOf(value) + key.length;
    if (size > this.maxBytes / 4) return;
    while (this.map.size > 0 && (this.map.size >= this.maxEntries || this.total + size > this.maxBytes)) {
      this.delete(this.map.keys().next().value!);
    }
    this.map.set(key, { value, size });
    this.total += size;
  }
  private delete(key: string): void {
    const e = this.map.get(key);
    if (!e) return;
    this.map.delete(key);
    this.total -= e.size;
  }
  get size(): number {
    return this.map.size;
  }
  get bytes(): number {
    return this.total;
  }
}
