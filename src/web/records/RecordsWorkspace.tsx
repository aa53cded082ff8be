/**
 * The records workspace: toolbar, filter builder, grid and pager for one table. The view is the
 * URL (see view-search.utils.ts); rows come from TanStack Query; UI state from small stores.
 */
import { PresenceBar } from "../team/live/PresenceBar";
import { usePresence } from "../team/live/use-presence";
import { useEditingCell } from "./grid/use-editing-cell";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { FilterGroup } from "../../shared/filter";
import type { JoinUnit, RecordRow, RecordValue, SortUnit } from "../../shared/records";
import { ApiError } from "../api-client";
import { toast } from "../ui/toast";
import { BulkUpdateDialog, type BulkTarget } from "./bulk-update/BulkUpdateDialog";
import { FilterBuilder } from "./filter-builder/FilterBuilder";
import { DeleteOne } from "./delete/DeleteOne";
import { NewRow } from "./add/NewRow";
import { NO_DELETE_REASON } from "./delete/DeleteSelected";
import { NO_INSERT_REASON } from "./add/AddRecord";
import { countConditions, fromWire } from "./filter-builder/filter-tree.utils";
import { allColumns, type GridColumn, unknownColumns, visibleColumns } from "./grid/columns.utils";
import { gridActions, useGridStore } from "./grid/grid-store";
import { Pager } from "./grid/Pager";
import { RecordsGrid } from "./grid/RecordsGrid";
import { useCellEdit } from "./grid/use-cell-edit";
import { configQueryOptions } from "../app/config-get-query";
import { recordsQueryOptions } from "./records-list-query";
import { SelectionBar } from "./SelectionBar";
import { useMay } from "../team/me-get-query";
import { AddRecord } from "./add/AddRecord";
import { ColumnChooser } from "./toolbar/ColumnChooser";
import { JoinPicker } from "./toolbar/JoinPicker";
import { UndoButtons } from "./undo/UndoButtons";
import { namesInView } from "./known-fields.utils";
import { useSiblingFields, useTableFields } from "./use-table-fields";
import { buildQueryBody, colsAfterJoin, formatJoin, formatSort, lastPage } from "./view-search.utils";
import { useViewSearch } from "./use-view-search";
import { usePanelPaging } from "./record-panel/use-panel-paging";
import { useStableCallback } from "../ui/use-stable-callback";
import { fmtInt } from "./values/values.utils";
import { useWidthStore, widthActions, withWidths } from "./grid/column-widths-store";
import { anyOverlay, overlayActions, useOverlayStore } from "./overlays/overlay-store";
import { preloadOverlays } from "./overlays/preload";
import { WorkspaceTools } from "./overlays/WorkspaceTools";
import { csvDropHandlers } from "./import/csv-drop";
import { useSavedViews } from "./saved-views/saved-views-store";
import { setDraft, useDraftStore } from "./filter-builder/draft-store";
import { addChild, newCondition } from "./filter-builder/filter-tree.utils";
import { toggleColumn } from "./grid/columns.utils";
import { Icon } from "../ui/icons";

const RecordsOverlays = lazy(() => import("./overlays/RecordsOverlays"));
const RecordPanel = lazy(() => import("./record-panel/RecordPanel"));

/** Refused (4xx: something in the view to fix) is not the same as unreachable or broken. */
function loadErrorTitle(e: Error): string {
  const status = e instanceof ApiError ? e.status : -1;
  if (status === 0) return "Records could not be loaded.";
  if (status >= 400 && status < 500) return "The service refused this view.";
  return "The service failed to answer.";
}

export function RecordsWorkspace({ db, table }: { db: string; table: string }) {
  const config = useQuery(configQueryOptions()).data!;
  const meta = config.databases.find((d) => d.id === db)?.tables.find((t) => t.slug === table);
  const pkGuess = meta?.primaryKey;
  const { search, view, setSearch } = useViewSearch(db, table, pkGuess);

  const body = useMemo(() => buildQueryBody(view, pkGuess), [view, pkGuess]);
  const records = useQuery({ ...recordsQueryOptions(db, table, body), enabled: !!meta });
  const mentioned = useMemo(() => namesInView(view.filter, view.sort, view.cols), [view.filter, view.sort, view.cols]);
  const { fields, pk } = useTableFields(config, db, table, records.data?.items, mentioned);
  const siblings = useSiblingFields(config, db, table);
  const pkField = pk ?? "";

  // What this person may do here comes from /api/me; the proxy refuses anyway.
  const may = useMay().table(db, table);
  const readOnly = !may.write;
  const canDeleteRecords = !!config.capabilities.deleteRecords && may.delete;
  const deleteWhy = !config.capabilities.deleteRecords ? NO_DELETE_REASON : may.delete ? undefined : may.why("delete");
  const insertWhy = !config.capabilities.insert ? NO_INSERT_REASON : readOnly ? may.why("change") : undefined;
  const joinFields = view.join ? siblings.fieldsOf(view.join.targetTable) : undefined;
  const columnsAll = useMemo(
    () => (fields ? allColumns(fields, view.join && joinFields ? { table: view.join.targetTable, fields: joinFields } : undefined) : []),
    [fields, view.join, joinFields],
  );
  const tableKey = `${db}/${table}`;
  const widths = useWidthStore((s) => s.byTable[tableKey]);
  const shownColumns = useMemo(() => (readOnly ? columnsAll.map((c) => ({ ...c, readOnly: true })) : columnsAll), [columnsAll, readOnly]);
  const columns = useMemo(() => withWidths(visibleColumns(shownColumns, view.cols), widths), [shownColumns, view.cols, widths]);
  const panelColumns = useMemo(() => withWidths(shownColumns, widths), [shownColumns, widths]);
  const filterFields = useMemo(() => columnsAll.map((c) => c.field), [columnsAll]);
  const editableFields = useMemo(() => (readOnly ? [] : (fields ?? []).filter((f) => !f.primaryKey && !f.key.includes("."))), [fields, readOnly]);

  // Columns named in the link that this table does not have.
  useEffect(() => {
    if (!fields || (view.join && !joinFields && config.capabilities.fields)) return;
    const unknown = unknownColumns(columnsAll, view.cols);
    if (unknown.length) {
      toast(`Unknown column${unknown.length > 1 ? "s" : ""} ignored: ${unknown.join(", ")}`, { kind: "info" });
      const kept = view.cols?.filter((c) => !unknown.includes(c));
      setSearch({ cols: kept?.length ? kept.join(",") : undefined }, true);
    }
  }, [fields, columnsAll, view.cols, view.join, joinFields, config.capabilities.fields, setSearch]);

  const filterKey = JSON.stringify(view.filter ?? null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter or table starts a new selection
  useEffect(() => gridActions.reset(), [db, table, filterKey]);

  const [filterOpen, setFilterOpen] = useState(() => !!view.filter);
  const [bulk, setBulk] = useState<BulkTarget | null>(null);
  const selected = useGridStore((s) => s.selected);

  const edit = useCellEdit(db, table, pkField, recordsQueryOptions(db, table, body).queryKey);
  const { mutate } = edit;
  const onCommit = useCallback(
    (row: RecordRow, col: GridColumn, value: RecordValue) => mutate({ pk: row[pkField], col, oldValue: row[col.key], newValue: value }),
    [mutate, pkField],
  );

  const count = records.data?.count;
  const pageOfData = useRef(new WeakMap<object, number>());
  const last = count === undefined ? view.page : lastPage(count, view.size);
  const onPage = useStableCallback((delta: -1 | 1) => {
    const p = view.page + delta;
    if (p >= 1 && p <= last) setSearch({ page: p === 1 ? undefined : p }, true);
  });
  const panelPageStep = usePanelPaging({
    page: view.page,
    last,
    pageRows: records.isPlaceholderData ? undefined : records.data?.items,
    pkField,
    goToPage: (p) => setSearch({ page: p === 1 ? undefined : p }, true),
    openRecord: useCallback((record: string) => setSearch({ record }, true), [setSearch]),
  });
  const onApply = useStableCallback((f: FilterGroup | undefined) => setSearch({ filter: f }));
  const onSortChange = useStableCallback((sort: SortUnit[]) => setSearch({ sort: formatSort(sort) }));
  const onResize = useStableCallback((key: string, w: number) => widthActions.set(tableKey, key, w));
  const onOpenRecord = useStableCallback((row: number) => {
    const r = records.data?.items[row];
    if (r) setSearch({ record: String(r[pkField]) }, true);
  });
  const overlayOpen = useOverlayStore(anyOverlay);
  const hasViews = useSavedViews((s) => s.views.some((v) => v.db === db && v.table === table));
  // Overlays belong to this table: none is left open for the next one.
  useEffect(() => () => overlayActions.reset(), []);
  const filterOn = useStableCallback((key: string) => {
    // A new condition on this Field in the draft, the builder open, its value focused.
    const stored = useDraftStore.getState().drafts[tableKey];
    const base = JSON.stringify(view.filter ?? null);
    const root = stored && stored.base === base ? stored.root : fromWire(view.filter);
    setDraft(tableKey, addChild(root, root.id, newCondition(key)), base);
    setFilterOpen(true);
    setTimeout(() => {
      const values = document.querySelectorAll<HTMLElement>(".filter-builder .cond :is(input, select):enabled");
      values[values.length - 1]?.focus();
    }, 50);
  });

  // Live: where this tab is (table, open Record, edited cell), for the others' presence.
  usePresence(meta ? `table:${db}/${table}` : null, search.record, useEditingCell(records.data?.items, columns, pkField));

  if (!meta) {
    return (
      <div className="center-state" role="alert">
        <h1>
          No table {db}.{table}
        </h1>
        <p className="muted">Pick a table from the sidebar.</p>
      </div>
    );
  }

  const conds = view.filter ? countConditions(fromWire(view.filter)) : 0;
  // Another page's rows, kept while this page loads (or fails to, in an outage), are never shown
  // under this page's number: the pager shows only pages the grid has.
  if (records.data && !records.isPlaceholderData) pageOfData.current.set(records.data, view.page);
  const otherPage = !!records.data && records.isPlaceholderData && pageOfData.current.get(records.data) !== view.page;
  const rowsShown = otherPage ? undefined : records.data?.items;

  const countText = count !== undefined ? `${fmtInt(count)} Record${count === 1 ? "" : "s"}${view.filter ? (count === 1 ? " matches" : " match") : ""}` : "";
  return (
    <div className="workspace">
      <header className="ws-head">
        <h1 className="ws-title" title={`${db}.${table}`}>
          <span className="muted">{db}.</span>
          {table}
        </h1>
        <span className="muted small" data-testid="total-count" title={countText}>
          {countText}
        </span>
        <PresenceBar view={`table:${db}/${table}`} />
        <span className="spacer" />
        {readOnly && (
          <span className="read-only-note" title={may.why("change")} aria-label={`Read-only. ${may.why("change")}`} tabIndex={0}>
            Read-only
          </span>
        )}
        <button
          type="button"
          className={`btn ${filterOpen ? "pressed" : ""}`}
          aria-expanded={filterOpen}
          onClick={() => setFilterOpen((o) => !o)}
          aria-label={conds > 0 ? `Filter (${conds} condition${conds === 1 ? "" : "s"} applied)` : "Filter"}
        >
          Filter{conds > 0 && <span className="badge">{conds}</span>}
        </button>
        <ColumnChooser all={columnsAll} cols={view.cols} onChange={(cols) => setSearch({ cols: cols?.join(",") }, true)} />
        <JoinPicker
          tables={siblings.tables}
          baseFields={editableFields.concat((fields ?? []).filter((f) => f.primaryKey))}
          join={view.join}
          targetFields={siblings.fieldsOf}
          primaryKeyOf={(t) => config.databases.find((d) => d.id === db)?.tables.find((x) => x.slug === t)?.primaryKey}
          onChange={(j: JoinUnit | undefined) => setSearch({ join: formatJoin(j), cols: colsAfterJoin(view.cols, j, j && siblings.fieldsOf(j.targetTable)) })}
        />
        <button
          type="button"
          className="btn"
          onClick={() => setBulk({ kind: "filter", filter: view.filter })}
          disabled={!editableFields.length}
          title={readOnly ? may.why("change") : view.filter ? "Set fields on every Record the applied filter matches" : "No filter applied: set fields on every Record of the table"}
        >
          {view.filter ? "Update matching…" : "Update all…"}
        </button>
        <AddRecord db={db} table={table} fields={fields} canInsert={!!config.capabilities.insert} deniedReason={readOnly ? may.why("change") : undefined} />
        <WorkspaceTools canImport={!!config.capabilities.import && !!fields && !readOnly} hasViews={hasViews} />
        <UndoButtons />
        <button type="button" className="btn btn-icon-text" onClick={() => records.refetch()} aria-label="Refresh" title="Refresh">
          <Icon name="refresh" size={14} />
        </button>
      </header>
      {filterOpen && fields && (
        <FilterBuilder
          db={db}
          table={table}
          fields={filterFields}
          operators={config.capabilities.operators}
          anyOf={!!config.capabilities.anyOf}
          applied={view.filter}
          appliedCount={count}
          onApply={onApply}
        />
      )}
      <DeleteOne db={db} table={table} pkField={pkField} canDelete={canDeleteRecords} deniedReason={deleteWhy} onDeleted={(pk) => search.record === String(pk) && setSearch({ record: undefined }, true)} />
      <SelectionBar count={count} pageSize={rowsShown?.length ?? view.size} deletion={{ db, table, pkField, canDelete: canDeleteRecords }} onBulk={(kind) => setBulk(kind === "rows" ? { kind, pks: [...selected.values()] } : { kind, filter: view.filter })} />
      <div className="grid-area" onPointerDownCapture={preloadOverlays} onKeyDownCapture={preloadOverlays} {...csvDropHandlers(!!config.capabilities.import && !!fields && !readOnly)}>
        {records.isFetching && <div className="loading-bar" role="progressbar" aria-label="Loading records" />}
        {records.isError && (
          <div className="error-box" role="alert">
            <strong>{loadErrorTitle(records.error)}</strong> {records.error.message}
            <button type="button" className="btn btn-sm" onClick={() => records.refetch()}>
              Retry
            </button>
          </div>
        )}
        {(records.isPending || otherPage) && !records.isError ? (
          <div className="center-state" role="status">
            <p className="muted">{otherPage ? `Loading page ${fmtInt(view.page)}…` : "Loading records…"}</p>
          </div>
        ) : rowsShown && rowsShown.length === 0 ? (
          <div className="center-state" role="status">
            {count && count > 0 ? (
              <>
                <p>Page {view.page} is past the end ({fmtInt(count)} Records).</p>
                <button type="button" className="btn" onClick={() => setSearch({ page: last === 1 ? undefined : last }, true)}>
                  Go to the last page
                </button>
              </>
            ) : view.filter ? (
              <>
                <p>No Records match this filter.</p>
                <button
                  type="button"
                  className="btn"
                  onClick={() => {
                    setFilterOpen(true);
                    // Straight to the first condition that can be changed.
                    requestAnimationFrame(() => document.querySelector<HTMLElement>(".filter-builder .cond :is(input, select):enabled")?.focus());
                  }}
                >
                  Edit the filter
                </button>
              </>
            ) : (
              <p>This table has no Records yet.</p>
            )}
          </div>
        ) : rowsShown && fields ? (
          <RecordsGrid
            label={`Records of ${db}.${table}`}
            rows={rowsShown}
            columns={columns}
            pkField={pkField}
            sort={view.sort}
            rowOffset={(view.page - 1) * view.size}
            totalRows={count}
            onSortChange={onSortChange}
            onCommit={onCommit}
            onPage={onPage}
            onOpenRecord={onOpenRecord}
            onResize={onResize}
            liveTable={`${db}/${table}`}
            openRecord={search.record}
            footer={fields && !insertWhy && !view.join ? <NewRow db={db} table={table} columns={columns} fields={fields} ariaRowIndex={(rowsShown?.length ?? 0) + 2} /> : undefined}
          />
        ) : null}
        {/* Inside the grid area: the panel leaves the toolbar, filter and pager usable. */}
        <Suspense fallback={null}>
          {search.record && fields && (
            <RecordPanel
              db={db}
              table={table}
              recordText={search.record}
              rows={rowsShown ?? []}
              columns={panelColumns}
              pkField={pkField}
              join={view.join}
              deleteWhy={deleteWhy}
              onCommit={onCommit}
              pageStep={{ next: view.page < last, prev: view.page > 1, go: panelPageStep }}
              onNavigate={(record) => {
                if (!record) {
                  // Closing lands on the row of the Record last shown: previous/next may have moved
                  // on from the cell it was opened from, or it was opened from a link.
                  const i = (rowsShown ?? []).findIndex((r) => String(r[pkField]) === search.record);
                  if (i >= 0) gridActions.setActive({ row: i, col: useGridStore.getState().active.col });
                }
                setSearch({ record }, true);
                if (!record) requestAnimationFrame(() => document.querySelector<HTMLElement>("[role=grid] .cell.active")?.focus());
              }}
            />
          )}
          {overlayOpen && fields && (
            <RecordsOverlays
              ctx={{
                db,
                table,
                config,
                view,
                search,
                rows: rowsShown ?? [],
                columns,
                fields,
                pkField,
                count,
                queryKey: recordsQueryOptions(db, table, body).queryKey,
                widths,
                applyFilter: onApply,
                setSort: onSortChange,
                hideColumn: (key) => setSearch({ cols: toggleColumn(columnsAll, view.cols, key).join(",") }, true),
                filterOn,
                openRecord: onOpenRecord,
                noInsert: insertWhy,
                noDelete: deleteWhy,
              }}
            />
          )}
        </Suspense>
      </div>
      <Pager
        page={view.page}
        size={view.size}
        count={count}
        onPage={(p) => setSearch({ page: p === 1 ? undefined : p }, true)}
        onSize={(s) => setSearch({ size: s === 50 ? undefined : s })}
      />
      {bulk && (
        <BulkUpdateDialog
          db={db}
          table={table}
          pkField={pkField}
          fields={editableFields}
          target={bulk}
          onClose={() => setBulk(null)}
          onDone={() => {
            setBulk(null);
            gridActions.clearSelection();
          }}
        />
      )}
    </div>
  );
}
