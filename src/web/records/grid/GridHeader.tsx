/** The sticky header row: select-all checkbox and sortable column headers. Memoized: scrolling does not touch it. */
import { memo } from "react";
import type { RecordValue, SortUnit } from "../../../shared/records";
import type { GridColumn } from "./columns.utils";
import { gridActions } from "./grid-store";
import { ResizeHandle } from "./ResizeHandle";

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
                  onClick={h.column.getToggleSortingHandler()}
                  title={`Sort by ${col.key} (Shift+click to add to the sort) · ${col.field.type}${col.readOnly ? " · read-only" : ""}`}
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
