/**
 * Structural parse of a wire filter (interface §2.3, decisions §4) into a normalized tree:
 * validates shapes and operators, then flattens single-element groups and groups nested in a
 * group of the same kind. Field types are not known here (the service checks them).
 *
 * Nesting is unlimited on the wire, so this never recurses: an explicit stack walks the tree
 * and error paths are rebuilt from parent links only when an error is reported.
 */
import { type Result, fail, ok } from "./errors";
import { allOperators, anyOfOperator, type FilterValue, type Operator, quoteName } from "./filter";

export interface ParsedCondition {
  kind: "condition";
  key: string;
  operator: Operator;
  /** undefined when the property was absent (isEmpty/isNotEmpty need none). */
  value: FilterValue | undefined;
  /** Where the condition was in the request, e.g. `filter.and[2].or[0]` (for messages). */
  path: string;
}

export interface ParsedGroup {
  kind: "group";
  op: "and" | "or";
  children: ParsedNode[];
}

export type ParsedNode = ParsedCondition | ParsedGroup;

export interface ParsedFilter {
  root: ParsedNode;
  /** Group levels left after flattening (0 when the filter is a single condition). */
  depth: number;
  /** Group levels as sent. */
  rawDepth: number;
  conditions: number;
}

const operatorSet: ReadonlySet<string> = new Set(allOperators);
/** Every operator the parse takes, for messages (anyOf is rewritten before the condition parse). */
const spelled = [...allOperators, anyOfOperator].join(", ");
const conditionKeys = new Set(["key", "operator", "value", "isFixed"]);

interface Frame {
  raw: unknown;
  parent: Frame | null;
  /** Path segment relative to the parent, e.g. `.and[3]`. */
  seg: string;
  level: number;
  /** Where the parsed result goes. */
  out: ParsedNode[];
  /** Set once the group's children were pushed: the frame is revisited to normalize. */
  group?: ParsedGroup;
  /** An `anyOf` condition rewritten as an `or` of `equal`s: its children are at `.value[i]`. */
  anyOf?: boolean;
}

/** Values an `anyOf` condition may list (each becomes one `equal`). */
export const ANY_OF_MAX = 1000;

/**
 * `{"key", "operator": "anyOf", "value": [a, b]}` → `{"or": [{key, equal, a}, {key, equal, b}]}`,
 * or why it is not a well-formed anyOf. The extension operator is a spelling of what the
 * interface can already say, so everything behind the parse (type checks, SQL) sees only `equal`.
 */
function expandAnyOf(node: Record<string, unknown>): { or: unknown[] } | string {
  const extra = Object.keys(node).find((k) => !conditionKeys.has(k));
  if (extra !== undefined) return `: unknown property ${quoteName(extra)}; a condition has key, operator, value and isFixed.`;
  const { key, value } = node;
  if (typeof key !== "string" || key === "") return ".key must be a non-empty string (a Field name).";
  if (!Array.isArray(value)) return `.value must be an array of values for anyOf, e.g. ["Sales", "Legal"], not ${describe(value)}.`;
  if (value.length > ANY_OF_MAX) return `.value lists ${value.length.toLocaleString("en-US")} values; anyOf takes at most ${ANY_OF_MAX.toLocaleString("en-US")}.`;
  return { or: value.map((v) => ({ key, operator: "equal", value: v })) };
}

const MAX_PATH_SEGMENTS = 8;

/** Rebuilds a readable path, eliding the middle of very deep ones. */
function pathOf(frame: Frame, rootName: string): string {
  const segs: string[] = [];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) segs.push(f.seg);
  segs.reverse();
  if (segs.length <= MAX_PATH_SEGMENTS) return rootName + segs.join("");
  const head = segs.slice(0, 4).join("");
  const tail = segs.slice(-4).join("");
  return `${rootName}${head}…(${(segs.length - 8).toLocaleString("en-US")} more levels)…${tail}`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `${typeof v} ${JSON.stringify(v)}`;
}

function parseCondition(raw: Record<string, unknown>, pathFn: () => string): Result<ParsedCondition> {
  // Built on demand: walking up to the root for every condition would cost depth × conditions.
  let cachedPath: string | undefined;
  const lazyPath = () => (cachedPath ??= pathFn());
  const path = { toString: lazyPath } as unknown as string;
  for (const k of Object.keys(raw)) {
    if (!conditionKeys.has(k)) {
      return fail("validation_error", `${path}: unknown property ${quoteName(k)}; a condition has key, operator, value and isFixed.`);
    }
  }
  const { key, operator, value, isFixed } = raw;
  if (typeof key !== "string" || key === "") return fail("validation_error", `${path}.key must be a non-empty string (a Field name).`);
  if (typeof operator !== "string") return fail("validation_error", `${path}.operator must be a string, one of: ${spelled}.`);
  if (!operatorSet.has(operator)) {
    return fail("validation_error", `${path}: unknown operator ${quoteName(operator)}; use one of: ${spelled}.`);
  }
  if (value !== undefined && value !== null && !["string", "number", "boolean"].includes(typeof value)) {
    return fail("validation_error", `${path}.value must be a string, number, boolean or null, not ${describe(value)}.`);
  }
  if (isFixed !== undefined && typeof isFixed !== "boolean") return fail("validation_error", `${path}.isFixed must be a boolean.`);
  const condition = { kind: "condition", key, operator: operator as Operator, value: value as FilterValue | undefined } as ParsedCondition;
  Object.defineProperty(condition, "path", { get: lazyPath, enumerable: true });
  return ok(condition);
}

/**
 * Parses `raw` (the value of a body property named `rootName`). The top level must be a group
 * (`{"and": […]}` or `{"or": […]}`), as the interface says.
 */
export function parseFilter(raw: unknown, rootName = "filter"): Result<ParsedFilter> {
  if (isPlainObject(raw) && !("and" in raw || "or" in raw) && "key" in raw && "operator" in raw) {
    // A lone condition: said as one, with how to write it (review 38b #3: "not an object" for an object).
    return fail("validation_error", `${rootName} is a single condition; the top level must be a group: wrap it as {"and": [${JSON.stringify(raw).slice(0, 200)}]}.`);
  }
  if (!isPlainObject(raw) || !("and" in raw || "or" in raw)) {
    return fail("validation_error", `${rootName} must be an object with exactly one of "and" or "or", not ${describe(raw)}.`);
  }
  const top: ParsedNode[] = [];
  const stack: Frame[] = [{ raw, parent: null, seg: "", level: 1, out: top }];
  let rawDepth = 0;
  let conditions = 0;
  const info = new Map<ParsedNode, GroupInfo>();
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.group) {
      stack.pop();
      finishGroup(frame.group, frame.out, info);
      continue;
    }
    const node = frame.raw;
    const fail400 = (msg: string): Result<never> => fail("validation_error", `${pathOf(frame, rootName)}${msg}`);
    if (!isPlainObject(node) || !("and" in node || "or" in node || "key" in node || "operator" in node)) {
      return fail400(` must be a condition {key, operator, value} or a group {"and": […]} / {"or": […]}, not ${describe(node)}.`);
    }
    if (!("and" in node || "or" in node) && node.operator === "anyOf") {
      const expanded = expandAnyOf(node);
      if (typeof expanded === "string") return fail400(expanded);
      frame.raw = expanded;
      frame.anyOf = true;
      continue;
    }
    const hasAnd = "and" in node;
    const hasOr = "or" in node;
    if (!hasAnd && !hasOr) {
      stack.pop();
      const parsed = parseCondition(node, () => pathOf(frame, rootName));
      if (!parsed.ok) return parsed;
      conditions++;
      frame.out.push(parsed.value);
      continue;
    }
    if (hasAnd && hasOr) return fail400(` has both "and" and "or"; a group has exactly one of them.`);
    const op = hasAnd ? "and" : "or";
    const extra = Object.keys(node).find((k) => k !== op);
    if (extra !== undefined) return fail400(` has an unknown property ${quoteName(extra)} beside "${op}"; a group has only "and" or "or".`);
    const items = node[op];
    if (!Array.isArray(items)) return fail400(`.${op} must be an array of conditions and groups, not ${describe(items)}.`);
    rawDepth = Math.max(rawDepth, frame.level);
    frame.group = { kind: "group", op, children: [] };
    // Children are pushed in reverse so they are parsed, and appended, in order.
    for (let i = items.length - 1; i >= 0; i--) {
      stack.push({ raw: items[i], parent: frame, seg: frame.anyOf ? `.value[${i}]` : `.${op}[${i}]`, level: frame.level + 1, out: frame.group.children });
    }
  }
  const root = top[0];
  materialize(root);
  return ok({ root, depth: info.get(root)?.depth ?? 0, rawDepth, conditions });
}

/**
 * Normalizes a finished group into `out` in time linear in its direct children: a same-kind
 * child is left in place and spliced in later by `materialize` (copying its children here would
 * cost depth² on a long same-kind chain); a group left with a single child is replaced by it.
 */
function finishGroup(group: ParsedGroup, out: ParsedNode[], info: Map<ParsedNode, GroupInfo>): void {
  let depth = 0;
  let count = 0;
  let single: ParsedNode | undefined;
  for (const child of group.children) {
    const ci = info.get(child);
    if (child.kind === "group" && child.op === group.op) {
      // Spliced: its own children become ours, one level up.
      count += ci?.count ?? 0;
      depth = Math.max(depth, (ci?.depth ?? 1) - 1);
    } else {
      count += 1;
      single = child;
      depth = Math.max(depth, ci?.depth ?? 0);
    }
  }
  // A same-kind child always holds 0 or ≥ 2 children, so one child means one plain child.
  if (count === 1 && single) {
    out.push(single);
    return;
  }
  info.set(group, { depth: depth + 1, count });
  out.push(group);
}

interface GroupInfo {
  /** Group levels after flattening. */
  depth: number;
  /** Children after flattening. */
  count: number;
}

/** Splices same-kind children into their parents, each node visited once (explicit stacks). */
function materialize(root: ParsedNode): void {
  const groups: ParsedNode[] = [root];
  while (groups.length > 0) {
    const g = groups.pop()!;
    if (g.kind !== "group") continue;
    const flat: ParsedNode[] = [];
    const work: [ParsedNode[], number][] = [[g.children, 0]];
    while (work.length > 0) {
      const top = work[work.length - 1];
      if (top[1] >= top[0].length) {
        work.pop();
        continue;
      }
      const node = top[0][top[1]++];
      if (node.kind === "group" && node.op === g.op) {
        work.push([node.children, 0]);
      } else {
        flat.push(node);
        if (node.kind === "group") groups.push(node);
      }
    }
    g.children = flat;
  }
}
