/** Copying cells: the range as TSV, and a row as JSON, onto the system clipboard. */
import type { RecordRow } from "../../../shared/records";
import type { GridColumn } from "../grid/columns.utils";
import type { CellPos } from "../grid/grid-store";
import { clipboardText, toTsv } from "./tsv.utils";

export interface CellRect {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The rectangle between two corners (grid coordinates, col 1 = first data column). */
export function rectOf(a: CellPos, b: CellPos | null): CellRect {
  const o = b ?? a;
  return { top: Math.min(a.row, o.row), bottom: Math.max(a.row, o.row), left: Math.max(1, Math.min(a.col, o.col)), right: Math.max(a.col, o.col) };
}

export function rangeTsv(rows: readonly RecordRow[], columns: readonly GridColumn[], rect: CellRect): string {
  const out: string[][] = [];
  for (let r = rect.top; r <= rect.bottom && r < rows.length; r++) {
    const line: string[] = [];
    for (let c = rect.left; c <= rect.right && c - 1 < columns.length; c++) {
      const col = columns[c - 1];
      line.push(clipboardText(col.field, rows[r][col.key]));
    }
    out.push(line);
  }
  return toTsv(out);
}

export async function writeClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // No permission or not a secure context: the old way, through a hidden text area.
  }
  const ta = document.createElement("textarea");
  ta.value = text;
  ta.style.cssText = "position:fixed;left:-9999px;top:0";
  const back = document.activeElement as HTMLElement | null;
  document.body.appendChild(ta);
  ta.select();
  const ok = document.execCommand("copy");
  ta.remove();
  back?.focus();
  if (!ok) throw new Error("The browser refused to copy.");
}
