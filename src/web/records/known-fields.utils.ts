/**
 * Fields of a table when the upstream has no `fields` endpoint (the hosted interface): what the
 * config file declares, then what earlier answers taught, remembered across pages and reloads.
 * The rule that matters: a Field's type, once seen from a real value, never changes; a column
 * that was all null on one page is only a guess, which the first real value replaces.
 */
import type { FilterGroup } from "../../shared/filter";
import type { MetaField } from "../../shared/meta";
import type { FieldInfo, FieldType, RecordRow, RecordValue } from "../../shared/records";
import { isValidDate, isValidDateTime } from "./values/values.utils";

export interface KnownField extends FieldInfo {
  /** The type is a placeholder: every value seen so far was null (or the name came from a link). */
  guessed?: boolean;
}

function typeOf(values: RecordValue[]): FieldType | undefined {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (!present.length) return undefined;
  // Only a json Field holds objects, or numbers and strings side by side.
  if (present.some((v) => typeof v === "object")) return "json";
  if (present.every((v) => typeof v === "number")) return "number";
  if (present.every((v) => typeof v === "boolean")) return "boolean";
  if (!present.every((v) => typeof v === "string")) return "json";
  if (present.every((v) => typeof v === "string" && isValidDate(v))) return "date";
  if (present.every((v) => typeof v === "string" && isValidDateTime(v))) return "datetime";
  return "text";
}

/** Fields seen in one answer, in column order; all-null columns are marked as guessed. */
export function fieldsFromRows(rows: readonly RecordRow[], primaryKey: string | undefined): KnownField[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const k of Object.keys(row)) {
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
    }
  }
  return keys.map((key) => {
    const type = typeOf(rows.map((r) => r[key] ?? null));
    const f: KnownField = { key, type: type ?? "text", nullable: key !== primaryKey, primaryKey: key === primaryKey };
    if (!type) f.guessed = true;
    return f;
  });
}

/** Field names a view mentions (filter, sort, columns) but no answer has shown yet. */
export function fieldsFromNames(names: readonly string[], primaryKey: string | undefined): KnownField[] {
  return [...new Set(names)].map((key) => ({ key, type: "text", nullable: key !== primaryKey, primaryKey: key === primaryKey, guessed: true }));
}

/**
 * `known` plus what `learnt` adds: new Fields are appended in order, a guessed type is replaced
 * by a real one, and a real type is never changed (a null or another page never downgrades it).
 * Returns `known` itself when nothing changed, so callers can skip a write.
 */
export function mergeKnownFields(known: readonly KnownField[], learnt: readonly KnownField[]): readonly KnownField[] {
  let out: KnownField[] | undefined;
  const index = new Map(known.map((f, i) => [f.key, i]));
  for (const f of learnt) {
    const i = index.get(f.key);
    if (i === undefined) {
      out ??= [...known];
      index.set(f.key, out.length);
      out.push(f);
    } else {
      const cur = (out ?? known)[i]!;
      if (cur.guessed && !f.guessed) {
        out ??= [...known];
        out[i] = { ...cur, type: f.type, guessed: undefined };
        delete out[i].guessed;
      }
    }
  }
  return out ?? known;
}

/** A Field declared in the config file (baseboard.config.json, per table). */
export type DeclaredField = MetaField;

/**
 * The Fields to use, by precedence: the `fields` endpoint's answer as is; otherwise the
 * declared Fields (their types win) followed by learnt ones the config does not name.
 */
export function resolveFields(
  endpoint: readonly FieldInfo[] | undefined,
  declared: readonly DeclaredField[] | undefined,
  learnt: readonly KnownField[],
  primaryKey: string | undefined,
): FieldInfo[] {
  if (endpoint) return [...endpoint];
  const out: FieldInfo[] = (declared ?? []).map((d) => ({
    key: d.key,
    type: d.type,
    nullable: d.key === primaryKey ? false : (d.nullable ?? true),
    primaryKey: d.key === primaryKey,
    ...(d.bucket ? { bucket: d.bucket } : {}),
  }));
  const named = new Set(out.map((f) => f.key));
  for (const f of learnt) {
    if (named.has(f.key)) continue;
    const { guessed: _g, ...info } = f;
    out.push({ ...info, primaryKey: f.key === primaryKey, nullable: f.key !== primaryKey });
  }
  return out;
}

/** localStorage form: a map "db/table" → Fields; anything unreadable counts as nothing known. */
export function readKnownFieldsMap(text: string | null): Record<string, KnownField[]> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (!v || typeof v !== "object" || Array.isArray(v)) return {};
    const out: Record<string, KnownField[]> = {};
    for (const [k, list] of Object.entries(v as Record<string, unknown>)) {
      if (!Array.isArray(list)) continue;
      out[k] = list.filter(
        (f): f is KnownField => !!f && typeof f === "object" && typeof (f as KnownField).key === "string" && typeof (f as KnownField).type === "string",
      );
    }
    return out;
  } catch {
    return {};
  }
}

/** Field names a view names: filter keys (iteratively: nesting is unlimited), sort keys, columns. */
export function namesInView(filter: FilterGroup | undefined, sort: readonly { key: string }[], cols: readonly string[] | undefined): string[] {
  const names: string[] = [];
  const stack: unknown[] = filter ? [filter] : [];
  while (stack.length) {
    const node = stack.pop() as Record<string, unknown> | null;
    if (!node || typeof node !== "object") continue;
    if (typeof node.key === "string") names.push(node.key);
    for (const k of ["and", "or"]) if (Array.isArray(node[k])) stack.push(...(node[k] as unknown[]).slice().reverse());
  }
  names.push(...sort.map((s) => s.key), ...(cols ?? []));
  return [...new Set(names)];
}
