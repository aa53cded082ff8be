/**
 * The records workspace's columns, derived from the table's Fields, the join and the URL's
 * `cols`: every column (for the chooser and the filter), the visible ones with their widths (the
 * grid), all of them with widths (the record panel), and the Fields an update may set. A column
 * named in the link that the table does not have is dropped from the URL with a notice.
 */
import { useEffect, useMemo } from "react";
import type { FieldInfo } from "../../shared/records";
import type { AppConfig } from "../../shared/meta";
import { toast } from "../ui/toast";
import { useWidthStore, withWidths } from "./grid/column-widths-store";
import { allColumns, unknownColumns, visibleColumns } from "./grid/columns.utils";
import type { View } from "./view-search.utils";

export function useWorkspaceColumns(opts: {
  tableKey: string;
  fields: FieldInfo[] | undefined;
  joinFields: FieldInfo[] | undefined;
  view: View;
  readOnly: boolean;
  capabilities: AppConfig["capabilities"];
  /** Drops unknown columns from the URL. */
  setCols(cols: string | undefined): void;
}) {
  const { tableKey, fields, joinFields, view, readOnly, capabilities, setCols } = opts;
  const columnsAll = useMemo(
    () => (fields ? allColumns(fields, view.join && joinFields ? { table: view.join.targetTable, fields: joinFields } : undefined) : []),
    [fields, view.join, joinFields],
  );
  const widths = useWidthStore((s) => s.byTable[tableKey]);
  const shownColumns = useMemo(() => (readOnly ? columnsAll.map((c) => ({ ...c, readOnly: true })) : columnsAll), [columnsAll, readOnly]);
  const columns = useMemo(() => withWidths(visibleColumns(shownColumns, view.cols), widths), [shownColumns, view.cols, widths]);
  const panelColumns = useMemo(() => withWidths(shownColumns, widths), [shownColumns, widths]);
  const filterFields = useMemo(() => columnsAll.map((c) => c.field), [columnsAll]);
  const editableFields = useMemo(() => (readOnly ? [] : (fields ?? []).filter((f) => !f.primaryKey && !f.key.includes("."))), [fields, readOnly]);

  // Columns named in the link that this table does not have.
  useEffect(() => {
    if (!fields || (view.join && !joinFields && capabilities.fields)) return;
    const unknown = unknownColumns(columnsAll, view.cols);
    if (unknown.length) {
      toast(`Unknown column${unknown.length > 1 ? "s" : ""} ignored: ${unknown.join(", ")}`, { kind: "info" });
      const kept = view.cols?.filter((c) => !unknown.includes(c));
      setCols(kept?.length ? kept.join(",") : undefined);
    }
  }, [fields, columnsAll, view.cols, view.join, joinFields, capabilities.fields, setCols]);

  return { columnsAll, columns, panelColumns, filterFields, editableFields, widths };
}
