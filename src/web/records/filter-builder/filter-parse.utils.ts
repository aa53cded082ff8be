/**
 * Reading a filter from untrusted text (the JSON view, the URL) and checking a builder draft
 * against the table's fields. Messages name the place (`and[1].or[0].key`) and say what to fix,
 * because a user pasting JSON needs to find the mistake without reading our source.
 */
import type { FilterGroup, FilterNode, FilterValue } from "../../../shared/filter";
import { type Result, fail, ok } from "../../../shared/errors";
import type { FieldInfo } from "../../../shared/records";
import { type BuilderNode, type GroupNode, valuelessOperators } from "./filter-tree.utils";
import { checkValue } from "../grid/values.utils";

export interface ParseContext {
  operators: readonly string[];
  /** When known, keys must name one of these fields. */
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

export function parseFilterValue(data: unknown, ctx: ParseContext, path = "filter"): Result<FilterGroup> {
  const problem = checkNode(data, ctx, path, true);
  return problem ? fail("validation_error", problem) : ok(data as FilterGroup);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkNode(data: unknown, ctx: ParseContext, path: string, mustBeGroup: boolean): string | undefined {
  if (!isPlainObject(data)) return `${path} must be an object like {"and": [...]}, not ${JSON.stringify(data)}.`;
  const keys = Object.keys(data);
  if ("and" in data || "or" in data) {
    if (keys.length !== 1) return `${path} must have exactly one key, "and" or "or"; it has ${keys.map((k) => `"${k}"`).join(", ")}.`;
    const op = keys[0];
    const list = data[op];
    if (!Array.isArray(list)) return `${path}.${op} must be an array of conditions or groups.`;
    for (let i = 0; i < list.length; i++) {
      const p = checkNode(list[i], ctx, `${path}.${op}[${i}]`, false);
      if (p) return p;
    }
    return undefined;
  }
  if (mustBeGroup) return `${path} must be a group: an object with one key, "and" or "or", holding an array.`;
  return checkCondition(data, ctx, path);
}

const conditionKeys = new Set(["key", "operator", "value", "isFixed"]);

function checkCondition(data: Record<string, unknown>, ctx: ParseContext, path: string): string | undefined {
  const extra = Object.keys(data).filter((k) => !conditionKeys.has(k));
  if (extra.length) return `${path} has unknown property "${extra[0]}"; a condition has key, operator, value and isFixed.`;
  if (typeof data.key !== "string" || data.key === "") return `${path}.key must be a field name (a non-empty string).`;
  if (ctx.fields && !ctx.fields.some((f) => f.key === data.key)) {
    return `${path}.key: there is no field "${data.key}". Fields: ${ctx.fields.map((f) => f.key).join(", ")}.`;
  }
  if (typeof data.operator !== "string") return `${path}.operator must be a string such as "equal".`;
  if (!ctx.operators.includes(data.operator)) {
    return `${path}.operator: "${data.operator}" is not offered by this upstream; use one of ${ctx.operators.join(", ")}.`;
  }
  const v = data.value;
  if (v !== undefined && v !== null && !["string", "number", "boolean"].includes(typeof v)) {
    return `${path}.value must be a string, number, boolean or null.`;
  }
  if (data.isFixed !== undefined && typeof data.isFixed !== "boolean") return `${path}.isFixed must be true or false.`;
  return undefined;
}

/** Per-node problems of a draft, keyed by node id; an empty map means it can be applied. */
export function draftProblems(root: GroupNode, fields: readonly FieldInfo[]): Map<string, string> {
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
    const problem = conditionValueProblem(field, node.operator, node.value);
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
  const r = checkValue(field, value);
  return r.ok ? undefined : r.error.message;
}

export function isFilterNode(v: unknown): v is FilterNode {
  return isPlainObject(v);
}
