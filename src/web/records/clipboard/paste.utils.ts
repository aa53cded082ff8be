/**
 * A paste (or an imported file) as a plan: every cell it would change, with the old and new
 * value, each new value type-checked against its Field; then one guarded update per Record.
 */
import type { FieldInfo, RecordRow, RecordValue, UpdateBody } from "../../../shared/records";
import type { GridColumn } from "../grid/columns.utils";
import { equalCond } from "../grid/edit.utils";
import { parseInput, sameValue } from "../values/values.utils";

export interface CellChange {
  pk: RecordValue;
  field: FieldInfo;
  before: RecordValue | undefined;
  /** The new value, when the text was valid for the Field. */
  after?: RecordValue;
  text: string;
  error?: string;
}

export interface PastePlan {
  changes: CellChange[];
  /** Cells whose pasted value is what they already hold. */
  unchanged: number;
  invalid: number;
}

export type PasteResult = { ok: true; plan: PastePlan } | { ok: false; message: string };

/**
 * A pasted cell → value. An empty cell is NULL where the Field allows it (as in a CSV import),
 * else "" for text; the rest is read as if typed into the cell.
 */
export function pastedValue(field: FieldInfo, text: string) {
  if (text === "") {
    if (field.nullable && !field.primaryKey) return { ok: true as const, value: null };
    if (["text", "image", "attachment"].includes(field.type)) return { ok: true as const, value: "" };
  }
  return parseInput(field, text);
}

/** "1 row is left", "3 rows are left". */
const leftOver = (n: number, noun: string) => (n === 1 ? `1 ${noun} is left` : `${n} ${noun}s are left`);

/**
 * What the person did: a paste, or Delete (clear the cells) or Ctrl/⌘+D (fill down), which are
 * made as a paste of the right shape and named as what they are.
 */
export type PasteKind = "paste" | "clear" | "fill";

/** The words for each kind: the dialog's titles, and the toast's and undo step's verb. */
export const PASTE_WORDS: Record<PasteKind, { title: string; result: string; done: string; undo: string; into: string; none: string; same: string }> = {
  paste: { title: "Paste: review the changes", result: "Paste result", done: "Pasted", undo: "Paste", into: "into", none: "nothing was pasted", same: "the pasted value" },
  clear: { title: "Clear cells: review the changes", result: "Clear result", done: "Cleared", undo: "Clear", into: "in", none: "nothing was cleared", same: "no value" },
  fill: { title: "Fill down: review the changes", result: "Fill down result", done: "Filled down", undo: "Fill down", into: "into", none: "nothing was filled", same: "the value filled down" },
};

/** Plans a TSV block pasted with its top-left cell at (row, col) of the page (col 0 = first data column). */
export function planPaste(cells: readonly (readonly string[])[], at: { row: number; col: number }, rows: readonly RecordRow[], columns: readonly GridColumn[], pkField: string, kind: PasteKind = "paste"): PasteResult {
  const height = cells.length;
  const width = Math.max(0, ...cells.map((r) => r.length));
  if (!height || !width) return { ok: false, message: "The clipboard holds no cells to paste." };
  if (at.row + height > rows.length) {
    return {
      ok: false,
      message: `The paste has ${height} rows but only ${leftOver(rows.length - at.row, "row")} on this page from the cursor: nothing was pasted. Use a larger page size or paste higher up.`,
    };
  }
  if (at.col + width > columns.length) {
    return { ok: false, message: `The paste has ${width} columns but only ${leftOver(columns.length - at.col, "column")} from the cursor: nothing was pasted.` };
  }
  const readOnly = columns.slice(at.col, at.col + width).filter((c) => c.readOnly);
  if (readOnly.length) {
    const names = readOnly.map((c) => c.key).join(", ");
    if (kind !== "paste") return { ok: false, message: `${names} ${readOnly.length === 1 ? "is" : "are"} read-only: ${PASTE_WORDS[kind].none}.` };
    return { ok: false, message: `The paste covers read-only column${readOnly.length === 1 ? "" : "s"} ${names}: nothing was pasted.` };
  }
  const changes: CellChange[] = [];
  let unchanged = 0;
  let invalid = 0;
  for (let r = 0; r < height; r++) {
    const row = rows[at.row + r];
    for (let c = 0; c < width; c++) {
      const col = columns[at.col + c];
      const text = cells[r][c] ?? "";
      const before = row[col.key];
      const v = pastedValue(col.field, text);
      if (!v.ok) {
        invalid++;
        changes.push({ pk: row[pkField], field: col.field, before, text, error: v.error.message });
      } else if (sameValue(before, v.value)) {
        unchanged++;
      } else {
        changes.push({ pk: row[pkField], field: col.field, before, after: v.value, text });
      }
    }
  }
  return { ok: true, plan: { changes, unchanged, invalid } };
}

export interface RecordUpdate {
  pk: RecordValue;
  changes: CellChange[];
  body: UpdateBody;
  /** json Fields holding a value cannot be tested by a filter: read and compare these first. */
  readCheck: CellChange[];
}

/**
 * One update per Record: its new values, filtered on primary key AND every old value, so a
 * Record changed elsewhere since it was shown matches nothing and is reported as a conflict.
 */
export function planUpdates(changes: readonly CellChange[], pkField: string): RecordUpdate[] {
  const byPk = new Map<string, CellChange[]>();
  for (const ch of changes) {
    if (ch.error || !("after" in ch)) continue;
    const k = JSON.stringify(ch.pk);
    const list = byPk.get(k) ?? [];
    list.push(ch);
    byPk.set(k, list);
  }
  return [...byPk.values()].map((list) => {
    const pk = list[0].pk;
    const readCheck = list.filter((c) => c.field.type === "json" && c.before !== null && c.before !== undefined);
    const guards = list.filter((c) => !readCheck.includes(c)).map((c) => equalCond(c.field.key, c.before));
    return {
      pk,
      changes: list,
      readCheck,
      body: { values: list.map((c) => ({ key: c.field.key, value: c.after as RecordValue })), filter: { and: [equalCond(pkField, pk), ...guards] } },
    };
  });
}
