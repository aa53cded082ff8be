/**
 * The records workspace's columns, derived from the table's Fields, the join and the URL's
 * `cols`: every column (for the chooser and the filter), the visible ones with their widths (the
 * grid), all of them with widths (the record panel), and the Fields an update may set. A column,
 * sort or filter in the link naming Fields the table does not have falls back, with a notice
 * (README, Web app: "a link with parts that make no sense…"): the service would refuse the view.
 */
import { useEffect, useMemo } from "react";
import type { FieldInfo } from "../../shared/records";
import type { AppConfig } from "../../shared/meta";
import { toast } from "../ui/toast";
import { useWidthStore, withWidths } from "./grid/column-widths-store";
import { allColumns, unknownColumns, visibleColumns } from "./grid/columns.utils";
import { namesInView } from "./known-fields.utils";
import type { View } from "./view-search.utils";
import type { FilterGroup } from "../../shared/filter";
import type { SortUnit } from "../../shared/records";

export function useWorkspaceColumns(opts: {
  tableKey: string;
  fields: FieldInfo[] | undefined;
  joinFields: FieldInfo[] | undefined;
  view: View;
  readOnly: boolean;
  capabilities: AppConfig["capabilities"];
  /** Drops unknown columns from the URL. */
  setCols(cols: string | undefined): void;
  /** The sort without its unknown Fields, and/or the filter naming unknown Fields, to take out of the URL. */
  dropUnknown(change: { sort?: SortUnit[]; filter?: FilterGroup }): void;
}) {
  const { tableKey, fields, joinFields, view, readOnly, capabilities, setCols, dropUnknown } = opts;
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

  // Sort and filter naming Fields this table does not have (known only from the fields
  // endpoint: inferred Fields are only those the rows show).
  const unknownInView = useMemo(() => {
    if (!fields || !capabilities.fields || (view.join && !joinFields)) return undefined;
    const known = new Set(columnsAll.map((c) => c.key));
    const sort = view.sort.filter((s) => !known.has(s.key)).map((s) => s.key);
    const filter = namesInView(view.filter, [], undefined).filter((k) => !known.has(k));
    return sort.length || filter.length ? { sort, filter } : undefined;
  }, [fields, capabilities.fields, view.join, joinFields, columnsAll, view.sort, view.filter]);
  useEffect(() => {
    if (!unknownInView) return;
    const { sort, filter } = unknownInView;
    const list = (names: string[]) => names.join(", ");
    if (sort.length) toast(`Unknown Field${sort.length > 1 ? "s" : ""} in the sort ignored: ${list(sort)}`, { kind: "info" });
    if (filter.length) {
      toast(`The filter was not applied: ${filter.length > 1 ? "these Fields are" : "this Field is"} not in ${tableKey}: ${list(filter)}. Fix the condition${filter.length > 1 ? "s" : ""} in the filter builder.`, { kind: "info" });
    }
    dropUnknown({ sort: sort.length ? view.sort.filter((s) => !sort.includes(s.key)) : undefined, filter: filter.length ? view.filter : undefined });
  }, [unknownInView, tableKey, view.sort, view.filter, dropUnknown]);

  return { columnsAll, columns, panelColumns, filterFields, editableFields, widths, unknownInView };
}
