/**
 * The records workspace's overlays, loaded on first use (they are not needed to show a table):
 * the cell and header menus, the paste preview, export, import and the saved-view dialogs.
 */
import type { FilterGroup } from "../../../shared/filter";
import type { AppConfig } from "../../../shared/meta";
import type { FieldInfo, QueryBody, RecordRow, SortUnit } from "../../../shared/records";
import { toast } from "../../ui/toast";
import PasteDialog from "../clipboard/PasteDialog";
import { writeClipboard } from "../clipboard/copy";
import { ContextMenu, type MenuItem } from "../context-menu/ContextMenu";
import { addCondition, valueCondition } from "../context-menu/filter-by-value.utils";
import ExportDialog from "../export/ExportDialog";
import type { GridColumn } from "../grid/columns.utils";
import { copyRange } from "../grid/grid-keys";
import { useGridStore } from "../grid/grid-store";
import { formatValue } from "../values/values.utils";
import ImportDialog from "../import/ImportDialog";
import ManageViewsDialog from "../saved-views/ManageViewsDialog";
import SaveViewDialog from "../saved-views/SaveViewDialog";
import type { View, ViewSearch } from "../view-search.utils";
import { overlayActions, useOverlayStore } from "./overlay-store";
import { addRequest } from "../add/add-request-store";
import { duplicateTexts } from "../add/duplicate.utils";
import { deleteRequest } from "../delete/delete-request-store";

export interface OverlayCtx {
  db: string;
  table: string;
  config: AppConfig;
  view: View;
  search: ViewSearch;
  rows: readonly RecordRow[];
  columns: readonly GridColumn[];
  fields: readonly FieldInfo[];
  pkField: string;
  count: number | undefined;
  queryKey: readonly unknown[];
  widths: Record<string, number> | undefined;
  applyFilter(filter: FilterGroup | undefined): void;
  setSort(sort: SortUnit[]): void;
  hideColumn(key: string): void;
  filterOn(key: string): void;
  openRecord(row: number): void;
  /** Why a Record cannot be added or deleted here (upstream or role); undefined when it can. */
  noInsert?: string;
  noDelete?: string;
  /** Why this person may change nothing here (their role or grant); undefined when they may. */
  readOnlyWhy?: string;
}

const short = (s: string) => (s.length > 28 ? `${s.slice(0, 27)}…` : s);

function cellItems(c: OverlayCtx, row: number, col: number): MenuItem[] {
  const column = c.columns[col - 1];
  const record = c.rows[row];
  if (!column || !record) return [];
  const value = record[column.key];
  const shown = value === null ? "NULL" : value === "" ? "empty" : short(formatValue(column.field.type, value ?? null));
  const keep = valueCondition(column.field, value, false, c.config.capabilities.operators);
  const drop = valueCondition(column.field, value, true, c.config.capabilities.operators);
  const { active, rangeAnchor } = useGridStore.getState();
  return [
    { label: `Filter by this value (${shown})`, disabled: !keep, hint: keep ? undefined : "A json value cannot be filtered on", run: () => keep && c.applyFilter(addCondition(c.view.filter, keep)) },
    {
      label: `Exclude this value (${shown})`,
      disabled: !drop,
      hint: drop ? undefined : "The upstream offers only “equal”",
      run: () => drop && c.applyFilter(addCondition(c.view.filter, drop)),
    },
    { label: rangeAnchor ? "Copy the selected cells" : "Copy", separatorBefore: true, run: () => void copyRange(c.rows, c.columns, active, rangeAnchor) },
    {
      label: "Copy row as JSON",
      run: () =>
        void writeClipboard(JSON.stringify(record, null, 2)).then(
          () => toast("Copied the row as JSON", { kind: "success", ttlMs: 2500 }),
          (e: Error) => toast("Could not copy", { kind: "error", detail: e.message }),
        ),
    },
    { label: "Open the Record", separatorBefore: true, run: () => c.openRecord(row) },
    {
      label: "Duplicate this Record…",
      disabled: !!c.noInsert,
      hint: c.noInsert,
      run: () => addRequest.ask({ texts: duplicateTexts(c.fields, record), copyOf: String(record[c.pkField]) }),
    },
    { label: "Delete this Record…", disabled: !!c.noDelete, hint: c.noDelete, run: () => deleteRequest.one(record[c.pkField]) },
    (() => {
      const none = useGridStore.getState().selected.size === 0;
      return { label: "Export the selected Records…", disabled: none, hint: none ? "Select rows first (their checkboxes, or Space on the first column)." : undefined, run: () => overlayActions.exportView("selection") };
    })(),
  ];
}

function headerItems(c: OverlayCtx, col: number): MenuItem[] {
  const column = c.columns[col - 1];
  if (!column) return [];
  return [
    { label: `Sort ascending by ${short(column.key)}`, run: () => c.setSort([{ key: column.key, direction: "ascending" }]) },
    { label: `Sort descending by ${short(column.key)}`, run: () => c.setSort([{ key: column.key, direction: "descending" }]) },
    { label: "Hide this column", disabled: c.columns.length <= 1, run: () => c.hideColumn(column.key) },
    { label: `Filter on ${short(column.key)}…`, separatorBefore: true, run: () => c.filterOn(column.key) },
  ];
}

export default function RecordsOverlays({ ctx }: { ctx: OverlayCtx }) {
  const s = useOverlayStore();
  const back = () => requestAnimationFrame(() => document.querySelector<HTMLElement>("[role=grid] .cell.active")?.focus());
  return (
    <>
      {s.menu && (
        <ContextMenu
          x={s.menu.x}
          y={s.menu.y}
          label={s.menu.kind === "cell" ? "Cell actions" : "Column actions"}
          items={s.menu.kind === "cell" ? cellItems(ctx, s.menu.row, s.menu.col) : headerItems(ctx, s.menu.col)}
          onClose={() => {
            overlayActions.closeMenu();
            back();
          }}
        />
      )}
      {s.paste && (
        <PasteDialog
          db={ctx.db}
          table={ctx.table}
          text={s.paste.text}
          at={s.paste.at}
          kind={s.paste.kind}
          rows={ctx.rows}
          columns={ctx.columns}
          pkField={ctx.pkField}
          queryKey={ctx.queryKey}
          readOnlyWhy={ctx.readOnlyWhy}
          onClose={() => overlayActions.closePaste()}
        />
      )}
      {s.exporting && (
        <ExportDialog
          db={ctx.db}
          table={ctx.table}
          body={exportBody(ctx)}
          keys={ctx.columns.map((c) => c.key)}
          pkField={ctx.pkField}
          count={ctx.count}
          selection={[...useGridStore.getState().selected.values()]}
          initialScope={s.exporting}
          onClose={() => overlayActions.closeExport()}
        />
      )}
      {s.importFile && (
        <ImportDialog db={ctx.db} table={ctx.table} file={s.importFile} fields={ctx.fields} pkField={ctx.pkField} noDelete={ctx.noDelete} onClose={() => overlayActions.importFile(null)} />
      )}
      {s.saveView && <SaveViewDialog db={ctx.db} table={ctx.table} search={ctx.search} widths={ctx.widths} onClose={() => overlayActions.saveView(false)} />}
      {s.manageViews && <ManageViewsDialog db={ctx.db} table={ctx.table} onClose={() => overlayActions.manageViews(false)} />}
    </>
  );
}

/** The view's query without paging: what the export walks through. */
function exportBody(c: OverlayCtx): QueryBody {
  const keys = c.columns.map((x) => x.key);
  const body: QueryBody = { sort: c.view.sort, select: keys.includes(c.pkField) ? keys : [c.pkField, ...keys] };
  if (c.view.filter) body.filter = c.view.filter;
  if (c.view.join) body.join = [c.view.join];
  return body;
}

