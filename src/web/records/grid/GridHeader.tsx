/** The sticky header row: select-all checkbox and sortable column headers. Memoized: scrolling does not touch it. */
import { memo, useState } from "react";
import type { RecordValue, SortUnit } from "../../../shared/records";
import type { GridColumn } from "./columns.utils";
import { gridActions } from "./grid-store";
import { MAX_COL_W, MIN_COL_W } from "./column-widths-store";
import { ResizeHandle } from "./ResizeHandle";
import { announce } from "../../ui/announce";

/** What the header needs of a TanStack Table header (sorting feature registered). */
export interface SortableHeader {
  id: string;
  column: {
    getIsSorted(): false | "asc" | "desc";
    getSortIndex(): number;
    getToggleSortingHandler(): undefined | ((e: unknown) => void);
  };
}

interface Props {
  width: number;
  columns: GridColumn[];
  sort: SortUnit[];
  headers: SortableHeader[] | undefined;
  pageSelected: boolean;
  someSelected: boolean;
  pks: RecordValue[];
  onResize?(key: string, width: number): void;
}

export const GridHeader = memo(function GridHeader({ width, columns, sort, headers, pageSelected, someSelected, pks, onResize }: Props) {
  // The header row is one tab stop (roving focus): ←/→ move between columns, Enter sorts,
  // Alt+←/→ resizes (Shift: by 50 px). Two stops per column made the grid 45 Tabs away.
  const [focused, setFocused] = useState(0);
  const clamp = (w: number) => Math.max(MIN_COL_W, Math.min(MAX_COL_W, Math.round(w)));
  const onKey = (i: number, e: React.KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === "ArrowDown" && !e.altKey && !e.ctrlKey && !e.metaKey) {
      // Down into the first row's cell of this column (↑ from there comes back here).
      const cell = e.currentTarget.closest("[role=grid]")?.querySelector<HTMLElement>(`[data-cell="0:${i + 1}"]`);
      if (!cell) return;
      e.preventDefault();
      e.stopPropagation();
      gridActions.setActive({ row: 0, col: i + 1 });
      cell.focus();
      return;
    }
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    e.stopPropagation();
    const dir = e.key === "ArrowRight" ? 1 : -1;
    if (e.altKey) {
      if (onResize) {
        const w = clamp(columns[i].width + dir * (e.shiftKey ? 50 : 10));
        onResize(columns[i].key, w);
        // Said, as the width has no words on screen (review 55b #3: silent).
        announce(`${columns[i].key}: ${w} px wide${w === MIN_COL_W ? " (the narrowest)" : w === MAX_COL_W ? " (the widest)" : ""}`);
      }
      return;
    }
    const next = Math.max(0, Math.min(columns.length - 1, i + dir));
    setFocused(next);
    (e.currentTarget.closest("[role=row]")?.querySelectorAll<HTMLButtonElement>(".th-btn")[next])?.focus();
  };
  return (
      <div role="rowgroup" className="grid-head" style={{ width }}>
        <div role="row" aria-rowindex={1} className="grid-row head">
          <div role="columnheader" aria-colindex={1} className="cell sel">
            <input
              type="checkbox"
              aria-label="Select all rows on this page"
              checked={pageSelected}
              ref={(el) => {
                if (el) el.indeterminate = !pageSelected && someSelected;
              }}
              onChange={() => gridActions.setPage(pks, !pageSelected)}
            />
          </div>
          {headers?.map((h, i) => {
            const col = columns[i];
            const dir = h.column.getIsSorted();
            const order = sort.length > 1 && dir ? h.column.getSortIndex() + 1 : null;
            return (
              <div
                key={h.id}
                role="columnheader"
                aria-colindex={i + 2}
                aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : "none"}
                className={`cell t-${col.field.type} ${col.joined ? "joined" : ""}${col.field.primaryKey && !col.joined ? " frozen" : ""}`}
                style={{ width: col.width }}
              >
                <button
                  type="button"
                  className="th-btn"
                  tabIndex={i === Math.min(focused, columns.length - 1) ? 0 : -1}
                  onFocus={() => setFocused(i)}
                  onKeyDown={(e) => onKey(i, e)}
                  onClick={h.column.getToggleSortingHandler()}
                  title={`Sort by ${col.key} (Shift+click to add to the sort) · ${col.field.type}${col.readOnly ? " · read-only" : ""}${onResize ? " · ←/→ other columns, Alt+←/→ width" : ""}`}
                >
                  <span className="th-name">{col.key}</span>
                  <span className="th-type">{col.field.primaryKey ? "PK" : col.field.type}</span>
                  {dir && (
                    <span className="th-sort" aria-hidden="true">
                      {dir === "asc" ? "▲" : "▼"}
                      {order && <sup>{order}</sup>}
                    </span>
                  )}
                </button>
                {onResize && <ResizeHandle col={col} onResize={onResize} />}
              </div>
            );
          })}
        </div>
      </div>
  );
});
