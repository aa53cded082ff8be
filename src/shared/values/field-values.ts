/**
 * Does a value fit its Field? The one check behind the service's writes (encodeWrite) and the
 * app's checks before it sends (checkValue), so neither accepts what the other refuses (issue 23
 * item 1; values.property.test.ts holds them to it). Each side phrases the problem its own way.
 */
import type { FieldType } from "../records";
import { parseObjectKey } from "../storage";
import { isValidDate, normalizeDatetime } from "./dates";
import { numberValueProblem } from "./numbers";

/** json values deeper than this are refused (and never walked recursively). */
export const MAX_JSON_DEPTH = 64;

export interface ValueField {
  key: string;
  type: FieldType;
  nullable: boolean;
  primaryKey?: boolean;
}

export type ValueProblem =
  | { kind: "null" }
  | { kind: "type" }
  | { kind: "number"; detail: string }
  | { kind: "nul" }
  | { kind: "surrogate" }
  | { kind: "emptyKey" }
  | { kind: "objectKey"; detail: string }
  | { kind: "depth" };

/** Depth of a JSON value, measured with an explicit stack (the value came from JSON.parse). */
export function jsonDepth(value: unknown, stopAt = MAX_JSON_DEPTH + 1): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (d + 1 > max) max = d + 1;
    if (max >= stopAt) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/**
 * What text no engine keeps as sent: U+0000 (PostgreSQL cannot hold it; refused on every engine so
 * both keep the same data), or half of a surrogate pair alone (JSON's "\ud83d" is no character:
 * the engines stored it as U+FFFD without a word, and two such keys became one). One rule for
 * values, filter values and import cells.
 */
export function textProblem(text: string): "nul" | "surrogate" | undefined {
  if (text.includes("\u0000")) return "nul";
  return /\p{Cs}/u.test(text) ? "surrogate" : undefined;
}

/**
 * A json value holds by the same rules as a Field's own values: every number exact (finite, not
 * -0, within 2^53 − 1: JSON.parse had made 9007199254740993 into …992, 1e400 into a null, -0 into
 * 0, without a word: review 31a #3), every text whole. Walked without recursion (the value is at
 * most MAX_JSON_DEPTH deep, checked first); the first problem is named with where it is.
 */
function jsonContentProblem(value: unknown): ValueProblem | undefined {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    const where = at ? ` (at ${at} in the json value)` : "";
    if (typeof v === "number") {
      const detail = numberValueProblem(v);
      if (detail) return { kind: "number", detail: `${detail}${where}` };
    } else if (typeof v === "string") {
      const bad = textProblem(v);
      if (bad) return { kind: bad };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}[${i}]`]);
    } else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const bad = textProblem(k);
        if (bad) return { kind: bad };
        stack.push([child, at ? `${at}.${k}` : k]);
      }
    }
  }
  return undefined;
}

/** The problem with `value` for `field`, or undefined when it fits exactly. */
export function fieldValueProblem(field: ValueField, value: unknown): ValueProblem | undefined {
  if (value === null) return field.nullable && !field.primaryKey ? undefined : { kind: "null" };
  switch (field.type) {
    case "text":
      if (typeof value !== "string") return { kind: "type" };
      {
        const bad = textProblem(value);
        if (bad) return { kind: bad };
      }
      // A primary key identifies its Record: "" is refused like null.
      return field.primaryKey && value === "" ? { kind: "emptyKey" } : undefined;
    case "image":
    case "attachment": {
      if (typeof value !== "string") return { kind: "type" };
      const key = parseObjectKey(value);
      return key.ok ? undefined : { kind: "objectKey", detail: key.error.message };
    }
    case "number": {
      if (typeof value !== "number") return { kind: "type" };
      const detail = numberValueProblem(value);
      return detail ? { kind: "number", detail } : undefined;
    }
    case "boolean":
      return typeof value === "boolean" ? undefined : { kind: "type" };
    case "date":
      return typeof value === "string" && isValidDate(value) ? undefined : { kind: "type" };
    case "datetime":
      return typeof value === "string" && normalizeDatetime(value) ? undefined : { kind: "type" };
    case "json":
      return value === undefined ? { kind: "type" } : jsonDepth(value) > MAX_JSON_DEPTH ? { kind: "depth" } : jsonContentProblem(value);
  }
}
