/** One virtualized row: selection checkbox and the cells. Memoized; props are primitives. */
import { memo } from "react";
import type { RecordRow, RecordValue } from "../../../shared/records";
import { CellEditor, type Move } from "./CellEditor";
import { CellValue } from "./CellValue";
import type { GridColumn } from "./columns.utils";
import { type Conflict, conflictKey } from "./grid-store";
import { noteDraft } from "./unsaved-edits";
import { ExpandIcon } from "../../ui/icons";

export const ROW_H = 34;
/** The checkbox column (select and open buttons); the frozen primary key sticks right of it. */
export const SEL_W = 60;

interface Props {
  row: RecordRow;
  index: number;
  ariaRowIndex: number;
  start: number;
  width: number;
  columns: readonly GridColumn[];
  pkField: string;
  selected: boolean;
  /** Column index of the active cell when it is in this row, else -1 (0 = checkbox). */
  activeCol: number;
  editingCol: number;
  initialText: string | undefined;
  conflicts: Map<string, Conflict> | undefined;
  /** Columns of this row whose edit is sent and not yet answered. */
  saving?: ReadonlyMap<string, true>;
  /** Columns of this row inside the selected cell range, else -1. */
  rangeFrom: number;
  rangeTo: number;
  onSelect(index: number, shift: boolean): void;
  onCellClick(row: number, col: number, shift?: boolean): void;
  onOpen?(row: number): void;
  onCellDoubleClick(row: number, col: number): void;
  onCommit(row: number, col: number, value: RecordValue, move: Move, base: RecordValue | undefined): void;
  onCancel(): void;
  /** Live (src/web/team/live/row-marks.ts): Fields just changed by someone else, "\n"-joined. */
  flash?: string;
  /** Who else has this Record open in their panel. */
  openBy?: string;
  /** "field\tName" lines: cells someone else is editing. */
  editingBy?: string;
  /** This Record is open in the record panel. */
  isOpen?: boolean;
}

/**
 * A refetch hands us new row objects even when nothing changed (after an edit, say): compare the
 * shown values, so only rows that really changed re-render.
 */
function sameRow(a: Props, b: Props): boolean {
  // The live marks are spread in (flash, openBy, editingBy): one that went away is a key that
  // is no longer there, so the key counts are compared too (a stale "is editing this cell").
  const keys = Object.keys(b) as (keyof Props)[];
  if (keys.length !== Object.keys(a).length) return false;
  for (const k of keys) {
    if (k !== "row" && a[k] !== b[k]) return false;
  }
  if (a.row === b.row) return true;
  if (a.row[a.pkField] !== b.row[b.pkField]) return false;
  return b.columns.every((c) => {
    const x = a.row[c.key];
    const y = b.row[c.key];
    return x === y || (typeof x === "object" && x !== null && JSON.stringify(x) === JSON.stringify(y));
  });
}

export const GridRow = memo(function GridRow(p: Props) {
  const pk = p.row[p.pkField];
  const flashed = p.flash ? new Set(p.flash.split("\n")) : undefined;
  const editors = p.editingBy ? new Map(p.editingBy.split("\n").map((l) => l.split("\t") as [string, string])) : undefined;
  return (
    <div
      role="row"
      aria-rowindex={p.ariaRowIndex}
      aria-selected={p.selected}
      className={`grid-row ${p.selected ? "selected" : ""} ${p.editingCol >= 0 ? "editing-row" : ""}${p.isOpen ? " open-record" : ""}`}
      aria-current={p.isOpen ? "true" : undefined}
      style={{ transform: `translateY(${p.start}px)`, width: p.width }}
      data-index={p.index}
    >
      <div
        role="gridcell"
        aria-colindex={1}
        className={`cell sel ${p.activeCol === 0 ? "active" : ""}`}
        tabIndex={p.activeCol === 0 ? 0 : -1}
        data-cell={`${p.index}:0`}
        onClick={() => p.onCellClick(p.index, 0)}
      >
        <input
          type="checkbox"
          tabIndex={-1}
          checked={p.selected}
          aria-label={`Select row ${String(pk)}`}
          onChange={() => {}}
          onClick={(e) => {
            e.stopPropagation();
            p.onSelect(p.index, e.shiftKey);
          }}
        />
        {p.onOpen && (
          <button
            type="button"
            className="row-open"
            tabIndex={-1}
            aria-label={`Open Record ${String(pk)}`}
            title="Open the Record (Space or Shift+Enter)"
            onClick={(e) => {
              e.stopPropagation();
              p.onOpen?.(p.index);
            }}
          >
            <ExpandIcon />
          </button>
        )}
        {p.openBy && (
          <span className="live-open-by" role="img" aria-label={`Open in the panel of ${p.openBy}`} title={`Open in the panel of ${p.openBy}`}>
            {p.openBy
              .split(", ")
              .map((w) => w[0]?.toUpperCase())
              .join("")
              .slice(0, 3)}
          </span>
        )}
      </div>
      {p.columns.map((col, i) => {
        const c = i + 1;
        const active = p.activeCol === c;
        const editing = p.editingCol === c;
        const conflict = p.conflicts?.get(col.key);
        // A failed save shows what was typed (with Retry), not the value it failed to replace.
        const value = conflict?.failed !== undefined ? conflict.attempted : p.row[col.key];
        const t = col.field.type;
        const ranged = c >= p.rangeFrom && c <= p.rangeTo && p.rangeFrom > 0;
        const editor = editors?.get(col.key);
        const saving = p.saving?.has(col.key) && !conflict;
        return (
          <div
            key={col.key}
            role="gridcell"
            aria-colindex={c + 1}
            aria-readonly={col.readOnly || undefined}
            // A range (Shift+arrows) is told, not only drawn: what Ctrl+C copies or Delete clears.
            aria-selected={ranged || undefined}
            className={`cell t-${t} ${active ? "active" : ""} ${editing ? "editing" : ""} ${col.readOnly ? "ro" : ""} ${conflict ? (conflict.failed !== undefined ? "failed" : "conflict") : ""}${ranged ? " in-range" : ""}${col.field.primaryKey && !col.joined ? " frozen" : ""}${flashed?.has(col.key) ? " live-flash" : ""}${editor ? " live-editing" : ""}${saving ? " saving" : ""}`}
            aria-busy={saving || undefined}
            style={{ width: col.width }}
            tabIndex={active && !editing ? 0 : -1}
            data-cell={`${p.index}:${c}`}
            data-col={col.key}
            title={
              conflict?.failed !== undefined
                ? `Not saved: ${conflict.failed}`
                : conflict
                  ? `Changed elsewhere${conflict.by ?? ""}; your value ${JSON.stringify(conflict.attempted)} was not saved`
                  : editor
                    ? `${editor} is editing this cell`
                    : saving
                      ? "Saving… (not answered yet)"
                      : undefined
            }
            onClick={(e) => p.onCellClick(p.index, c, e.shiftKey)}
            onDoubleClick={() => p.onCellDoubleClick(p.index, c)}
          >
            {editing ? (
              <CellEditor
                col={col}
                value={value}
                initialText={p.initialText}
                mine={conflict && conflict.failed === undefined ? { value: conflict.attempted, by: conflict.by } : undefined}
                onCommit={(v, move, base) => p.onCommit(p.index, c, v, move, base)}
                onDraft={(v, base, text) => noteDraft(conflictKey(pk, col.key), v, base, text)}
                onCancel={p.onCancel}
              />
            ) : (
              <>
                <CellValue col={col} value={value} />
                {editor && (
                  <span className="live-editor-name" aria-hidden="true">
                    {editor}
                  </span>
                )}
                {conflict?.failed !== undefined && (
                  <button
                    type="button"
                    className="cell-retry"
                    aria-label={`Retry saving ${col.key}`}
                    onClick={(e) => {
                      e.stopPropagation();
                      p.onCommit(p.index, c, conflict.attempted, "none", conflict.current);
                    }}
                  >
                    Retry
                  </button>
                )}
              </>
            )}
          </div>
        );
      })}
    </div>
  );
}, sameRow);
