/**
 * Reading a filter from untrusted text (the JSON view, the URL) and checking a builder draft
 * against the table's fields. Messages name the place (`and[1].or[0].key`) and say what to fix,
 * because a user pasting JSON needs to find the mistake without reading our source.
 */
import { anyOfOperator, type FilterGroup, type FilterValue, quoteName } from "../../../shared/filter";
import { type ParsedCondition, type ParsedNode, parseFilter } from "../../../shared/filter-parse";
import { operatorProblem } from "../../../shared/operators";
import { type Result, fail, ok } from "../../../shared/errors";
import type { FieldInfo } from "../../../shared/records";
import { type BuilderNode, type GroupNode, valuelessOperators } from "./filter-tree.utils";
import { checkValue } from "../values/values.utils";

export interface ParseContext {
  /** What the upstream offers (capabilities.operators: only `equal` on the hosted interface). */
  operators: readonly string[];
  /** When known, keys must name one of these fields, with an operator that applies to its type. */
  fields?: readonly FieldInfo[];
}

export function parseFilterText(text: string, ctx: ParseContext): Result<FilterGroup> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return fail("validation_error", `That is not valid JSON: ${(e as Error).message}`);
  }
  return parseFilterValue(data, ctx);
}

/**
 * The service's own parser (src/shared/filter-parse.ts: shapes, operators, values, any depth),
 * then what the app knows besides: the table's fields, the operators the upstream offers and
 * which apply to each field's type (src/shared/operators.ts). The filter is kept as written.
 */
export function parseFilterValue(data: unknown, ctx: ParseContext, path = "filter"): Result<FilterGroup> {
  const parsed = parseFilter(data, path);
  if (!parsed.ok) return parsed;
  const stack: ParsedNode[] = [parsed.value.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === "group") {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
      continue;
    }
    const problem = conditionProblem(node, ctx);
    if (problem) return fail("validation_error", problem);
  }
  return ok(data as FilterGroup);
}

function conditionProblem(c: ParsedCondition, ctx: ParseContext): string | undefined {
  const field = ctx.fields?.find((f) => f.key === c.key);
  // An "anyOf" is parsed as one `equal` a value (at `.value[i]`): its key is the condition's own
  // (review 52b #4: "filter.and[0].value[0].key" sent the reader to a place that is not there).
  const at = c.path.replace(/\.value\[\d+\]$/, "");
  if (ctx.fields && !field) return `${at}.key: there is no field ${quoteName(c.key)}. Fields: ${ctx.fields.map((f) => f.key).join(", ")}.`;
  if (!ctx.operators.includes(c.operator)) {
    return `${c.path}.operator: "${c.operator}" is not offered by this upstream; use one of ${ctx.operators.join(", ")}.`;
  }
  return field ? operatorProblem(c.path, field, c.operator) : undefined;
}

/**
 * Per-node problems of a draft, keyed by node id; an empty map means it can be applied. `typed`:
 * text still being typed in an "is any of" box, by node id, which counts as one more value.
 */
export function draftProblems(root: GroupNode, fields: readonly FieldInfo[], typed: Readonly<Record<string, string>> = {}): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (node: BuilderNode) => {
    if (node.kind === "group") {
      node.children.forEach(visit);
      return;
    }
    const field = fields.find((f) => f.key === node.key);
    if (!field) {
      out.set(node.id, node.key ? `Unknown field "${node.key}".` : "Choose a field.");
      return;
    }
    if (valuelessOperators.has(node.operator)) return;
    if (node.operator === anyOfOperator) {
      const list = Array.isArray(node.value) ? node.value : [];
      if (list.length === 0 && !typed[node.id]?.trim()) {
        out.set(node.id, "Add at least one value (type it and press Enter).");
        return;
      }
      for (const v of list) {
        const p = conditionValueProblem(field, "equal", v);
        if (p) {
          out.set(node.id, p);
          return;
        }
      }
      return;
    }
    const problem = conditionValueProblem(field, node.operator, Array.isArray(node.value) ? node.value[0] : node.value);
    if (problem) out.set(node.id, problem);
  };
  visit(root);
  return out;
}

const emptyHints: Partial<Record<FieldInfo["type"], string>> = {
  number: "a number (e.g. 42 or 3.5)",
  date: "a complete date",
  datetime: "a date and time with a zone (e.g. 2024-03-01T09:30:00Z)",
};

function conditionValueProblem(field: FieldInfo, operator: string, value: FilterValue | undefined): string | undefined {
  if (value === null || value === undefined) {
    return operator === "equal" || operator === "notEqual" ? undefined : "Choose a value (null only works with equals).";
  }
  if (["contains", "notContains", "startsWith"].includes(operator)) {
    return typeof value === "string" ? undefined : "Enter text to look for.";
  }
  if (field.type === "json") return "A json field can only be compared with NULL (or use is empty / is not empty).";
  // A number or date input that holds an incomplete entry ("4e", "03/15/yyyy") reports "": say
  // what to enter rather than quoting an empty string the user never typed.
  if (value === "" && emptyHints[field.type]) return `Enter ${emptyHints[field.type]} for ${field.key}.`;
  const r = checkValue({ ...field, primaryKey: false, nullable: true }, value);
  return r.ok ? undefined : r.error.message;
}
