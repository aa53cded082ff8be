/**
 * The grid's keys beyond moving and editing: shift+arrows grow a cell range, Ctrl/⌘+C copies it,
 * Shift+Enter opens the Record, Shift+F10 or the ContextMenu key opens the cell's menu.
 * (Ctrl/⌘+V arrives as a paste event, which carries the clipboard without a permission prompt.)
 */
import type { RecordRow } from "../../../shared/records";
import { rangeTsv, rectOf, writeClipboard } from "../clipboard/copy";
import { type MenuTarget, overlayActions } from "../overlays/overlay-store";
import { toast } from "../../ui/toast";
import type { GridColumn } from "./columns.utils";
import { type CellPos, gridActions, useGridStore } from "./grid-store";
import { deleteRequest } from "../delete/delete-request-store";

interface Ctx {
  active: CellPos;
  rangeAnchor: CellPos | null;
  rows: readonly RecordRow[];
  columns: readonly GridColumn[];
  moveTo(row: number, col: number): void;
  openRecord(row: number): void;
}

const arrows: Record<string, [number, number]> = { ArrowDown: [1, 0], ArrowUp: [-1, 0], ArrowRight: [0, 1], ArrowLeft: [0, -1] };

export async function copyRange(rows: readonly RecordRow[], columns: readonly GridColumn[], active: CellPos, anchor: CellPos | null): Promise<void> {
  const rect = rectOf(active, anchor);
  const n = (rect.bottom - rect.top + 1) * (rect.right - rect.left + 1);
  try {
    await writeClipboard(rangeTsv(rows, columns, rect));
    toast(n === 1 ? "Copied the cell" : `Copied ${n} cells`, { kind: "success", ttlMs: 2500 });
  } catch (e) {
    toast("Could not copy", { kind: "error", detail: (e as Error).message });
  }
}

/**
 * Delete on a row's selection box (the box itself, after a click, or its cell) with Records
 * selected: the delete confirmation (issue 24). Returns true when it handled the key.
 */
export function selectionDeleteKey(e: React.KeyboardEvent): boolean {
  if (e.key !== "Delete" || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return false;
  const onSelectCell = e.target instanceof HTMLElement && !!e.target.closest('[data-cell$=":0"]');
  if (!onSelectCell || useGridStore.getState().selected.size === 0) return false;
  e.preventDefault();
  deleteRequest.ask();
  return true;
}

/** Handles the key and returns true, or returns false for the grid's own handler. */
export function handleGridKey(e: React.KeyboardEvent, ctx: Ctx): boolean {
  const { active } = ctx;
  const mod = e.ctrlKey || e.metaKey;
  if (e.shiftKey && !mod && !e.altKey && arrows[e.key]) {
    e.preventDefault();
    const [dr, dc] = arrows[e.key];
    const row = Math.max(0, Math.min(ctx.rows.length - 1, active.row + dr));
    const col = Math.max(1, Math.min(ctx.columns.length, active.col + dc));
    const anchor = ctx.rangeAnchor ?? active;
    ctx.moveTo(row, col);
    gridActions.setRangeAnchor(anchor);
    return true;
  }
  if (mod && !e.altKey && e.key.toLowerCase() === "c") {
    e.preventDefault();
    if (active.col > 0 || ctx.rangeAnchor) void copyRange(ctx.rows, ctx.columns, active.col > 0 ? active : { ...active, col: 1 }, ctx.rangeAnchor);
    return true;
  }
  if (e.key === "Enter" && e.shiftKey && !mod) {
    e.preventDefault();
    ctx.openRecord(active.row);
    return true;
  }
  // Delete/Backspace clears the cell or range, Ctrl/⌘+D fills the range down from its top row
  // (issue 24 item 4): both are a paste of the right shape, so they are checked, reviewed and
  // applied as one undo step by the paste's own path.
  if ((e.key === "Delete" || e.key === "Backspace") && !mod && !e.shiftKey && !e.altKey && active.col > 0) {
    e.preventDefault();
    const rect = rectOf(active, ctx.rangeAnchor);
    const line = Array(rect.right - rect.left + 1).fill('""').join("\t");
    // Every line ends in a newline: the TSV reader drops a last line that is only "" otherwise.
    overlayActions.paste(`${line}\n`.repeat(rect.bottom - rect.top + 1), { row: rect.top, col: rect.left }, "clear");
    return true;
  }
  if (mod && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "d" && ctx.rangeAnchor && active.col > 0) {
    e.preventDefault();
    const rect = rectOf(active, ctx.rangeAnchor);
    if (rect.bottom > rect.top) {
      const top = rangeTsv(ctx.rows, ctx.columns, { ...rect, bottom: rect.top }).replace(/\r?\n$/, "");
      overlayActions.paste(`${top}\n`.repeat(rect.bottom - rect.top), { row: rect.top + 1, col: rect.left }, "fill");
    }
    return true;
  }
  if ((e.key === "F10" && e.shiftKey) || e.key === "ContextMenu") {
    e.preventDefault();
    const el = e.target as HTMLElement;
    const r = el.getBoundingClientRect();
    const target: MenuTarget = active.col > 0 ? { kind: "cell", row: active.row, col: active.col } : { kind: "cell", row: active.row, col: 1 };
    overlayActions.openMenu({ ...target, x: r.left + 8, y: r.bottom });
    return true;
  }
  return false;
}

/** What a right-click landed on: a body cell or a column header. */
export function menuAtElement(el: Element): MenuTarget | null {
  const cell = el.closest<HTMLElement>("[data-cell]");
  if (cell?.dataset.cell) {
    const [row, col] = cell.dataset.cell.split(":").map(Number);
    return col > 0 ? { kind: "cell", row, col } : null;
  }
  const head = el.closest<HTMLElement>("[role=columnheader]");
  const idx = Number(head?.getAttribute("aria-colindex"));
  return idx > 1 ? { kind: "header", col: idx - 1 } : null;
}

/** Shift+F10 or the ContextMenu key on a column header: its menu (sort, hide, filter on it). */
export function headerMenuKey(e: React.KeyboardEvent): boolean {
  if (!(e.target instanceof HTMLElement) || !((e.key === "F10" && e.shiftKey) || e.key === "ContextMenu")) return false;
  const head = e.target.closest("[role=columnheader]") ? menuAtElement(e.target) : null;
  if (!head) return false;
  e.preventDefault();
  const r = e.target.getBoundingClientRect();
  overlayActions.openMenu({ ...head, x: r.left + 8, y: r.bottom });
  return true;
}

/** Ctrl/⌘+V on a cell: the clipboard's text goes to the paste preview, top-left at the cursor. */
export function onGridPaste(e: React.ClipboardEvent, active: CellPos): void {
  // The browser fires paste where the text selection is: after a click that is the cell's inner
  // text node's element (a span), not the focused cell itself, so look for the enclosing cell.
  if (!(e.target instanceof Element && e.target.closest("[data-cell]"))) return;
  e.preventDefault();
  overlayActions.paste(e.clipboardData.getData("text/plain"), { row: active.row, col: Math.max(1, active.col) });
}

/** A right-click on a cell or a header: that cell becomes the cursor, and its menu opens. */
export function onGridContextMenu(e: React.MouseEvent): void {
  if (!(e.target instanceof Element)) return;
  const target = menuAtElement(e.target);
  if (!target) return;
  e.preventDefault();
  if (target.kind === "cell") gridActions.setActive({ row: target.row, col: target.col });
  overlayActions.openMenu({ ...target, x: e.clientX, y: e.clientY });
}
