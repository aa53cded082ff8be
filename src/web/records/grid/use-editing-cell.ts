/** The cell this tab is editing, as (Record's primary key, Field), for presence; undefined when none. */
import { type RecordRow, recordKeyText } from "../../../shared/records";
import type { GridColumn } from "./columns.utils";
import { useGridStore } from "./grid-store";

export function useEditingCell(rows: readonly RecordRow[] | undefined, columns: readonly GridColumn[], pkField: string): { record: string; field: string } | undefined {
  const editing = useGridStore((s) => s.editing);
  if (!editing || !rows) return undefined;
  const row = rows[editing.row];
  const col = columns[editing.col - 1];
  if (!row || !col) return undefined;
  const pk = row[pkField];
  return { record: recordKeyText(pk), field: col.key };
}
