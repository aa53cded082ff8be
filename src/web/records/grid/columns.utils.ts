/**
 * Grid columns from field metadata: width and alignment by type, joined fields read-only, the
 * user's chosen columns and order (the URL's `cols`, sent as `select`).
 */
import type { FieldInfo, FieldType } from "../../../shared/records";

export interface GridColumn {
  key: string;
  field: FieldInfo;
  joined: boolean;
  readOnly: boolean;
  width: number;
}

const widthByType: Record<FieldType, number> = {
  text: 180,
  number: 120,
  boolean: 110,
  date: 130,
  datetime: 190,
  json: 220,
  image: 110,
  attachment: 200,
};

/**
 * Wide enough for the header's name (12px bold ≈ 7.5px a character) and its type tag (10px ≈ 6.5px
 * a character, "number" or "PK"), with the sort mark and padding, within reason (review 55b #11:
 * "amount" as a number read "amou…").
 */
export function columnWidth(key: string, type: FieldType, primaryKey = false): number {
  const tag = primaryKey ? 2 : type.length;
  return Math.max(primaryKey ? 140 : widthByType[type], Math.min(320, Math.round(key.length * 7.5 + tag * 6.5) + 60));
}

export function allColumns(base: readonly FieldInfo[], join?: { table: string; fields: readonly FieldInfo[] }): GridColumn[] {
  const cols: GridColumn[] = base
    .filter((f) => !f.key.includes("."))
    .map((f) => ({ key: f.key, field: f, joined: false, readOnly: f.primaryKey, width: columnWidth(f.key, f.type, f.primaryKey) }));
  if (join) {
    for (const f of join.fields) {
      const key = `${join.table}.${f.key}`;
      cols.push({ key, field: { ...f, key, primaryKey: false }, joined: true, readOnly: true, width: columnWidth(key, f.type) });
    }
  }
  // Inferred fields (no fields endpoint) already carry joined keys as "table.field".
  for (const f of base) {
    if (f.key.includes(".") && !cols.some((c) => c.key === f.key)) {
      cols.push({ key: f.key, field: f, joined: true, readOnly: true, width: columnWidth(f.key, f.type) });
    }
  }
  return cols;
}

export function visibleColumns(all: readonly GridColumn[], cols: readonly string[] | undefined): GridColumn[] {
  if (!cols) return [...all];
  return cols.map((k) => all.find((c) => c.key === k)).filter((c): c is GridColumn => c !== undefined);
}

/** cols after hiding/showing one column; showing appends it at the end. */
export function toggleColumn(all: readonly GridColumn[], cols: readonly string[] | undefined, key: string): string[] {
  const current = cols ? [...cols] : all.map((c) => c.key);
  return current.includes(key) ? current.filter((k) => k !== key) : [...current, key];
}

export function moveColumn(all: readonly GridColumn[], cols: readonly string[] | undefined, key: string, delta: -1 | 1): string[] {
  const current = cols ? [...cols] : all.map((c) => c.key);
  const i = current.indexOf(key);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= current.length) return current;
  [current[i], current[j]] = [current[j], current[i]];
  return current;
}

/** Drop columns the table does not have; say which. */
export function unknownColumns(all: readonly GridColumn[], cols: readonly string[] | undefined): string[] {
  return cols ? cols.filter((k) => !all.some((c) => c.key === k)) : [];
}
