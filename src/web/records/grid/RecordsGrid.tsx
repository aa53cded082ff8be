/**
 * The records grid: TanStack Table in manual mode (the service sorts and pages), rows
 * virtualized with TanStack Virtual, a roving active cell for keyboard use, inline editing.
 */
import { useRowMarks } from "../../team/live/row-marks";
import { recordKeyText } from "../../../shared/records";
import { rowSortingFeature, type SortingState, tableFeatures, useTable } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { RecordRow, RecordValue, SortUnit } from "../../../shared/records";
import { isTypingTarget } from "../../app/shortcuts";
import { toast } from "../../ui/toast";
import { rowKey, useLiveStore } from "../../team/live/live-store";
import { type EditLost, EditLostDialog } from "./EditLostDialog";
import { typedInto } from "./unsaved-edits";
import type { Move } from "./CellEditor";
import type { GridColumn } from "./columns.utils";
import { noteLeaving, takeOver } from "./focus-handoff";
import { type CellPos, gridActions, pkId, useGridStore } from "./grid-store";
import { GridHeader } from "./GridHeader";
import { GridRow, ROW_H, SEL_W } from "./GridRow";
import { sameValue } from "../values/values.utils";
import { rectOf } from "../clipboard/copy";
import { handleGridKey, headerMenuKey, selectionDeleteKey, onGridContextMenu, onGridPaste } from "./grid-keys";

const features = tableFeatures({ rowSortingFeature });
const emptyRows: RecordRow[] = [];
const isMultiSortEvent = (e: unknown) => (e as MouseEvent).shiftKey;

interface Props {
  label: string;
  rows: RecordRow[] | undefined;
  columns: GridColumn[];
  pkField: string;
  sort: SortUnit[];
  rowOffset: number;
  /** All matching Records (every page), when known: screen readers announce "row 52 of 1,001". */
  totalRows?: number;
  onSortChange(sort: SortUnit[]): void;
  /** `at`: the cell edited and where the cursor went (a conflict brings it back, if it is still there). */
  onCommit(row: RecordRow, col: GridColumn, value: RecordValue, at?: { from: CellPos; to: CellPos }): void;
  onPage(delta: -1 | 1): void;
  /** Open a Record in the side panel (row index on this page). */
  onOpenRecord?(row: number): void;
  /** A column's new width (drag or keyboard on its header's edge). */
  onResize?(key: string, width: number): void;
  /** Shown after the last row (the blank row for a new Record). */
  footer?: React.ReactNode;
  /** "<db>/<table>": live marks (others' changes flash, their open Record and edited cell). */
  liveTable?: string;
  /** The primary key (as text) of the Record open in the panel: its row is highlighted. */
  openRecord?: string;
  /** Why this person may change nothing here (their role or grant): said when they try. */
  readOnlyWhy?: string;
}

/** Set by ] and [: the next grid to show rows (the same one, or the one mounted after loading) takes focus. */
let refocusAfterPage = false;

/** Memoized: a navigation that leaves rows, columns and sort alone does not re-render it. */
export const RecordsGrid = memo(function RecordsGrid(p: Props) {
  const rows = p.rows ?? emptyRows;
  const marks = useRowMarks(p.liveTable ?? "", `table:${p.liveTable ?? ""}`);
  const sorting = useMemo<SortingState>(() => p.sort.map((s) => ({ id: s.key, desc: s.direction === "descending" })), [p.sort]);
  const columnDefs = useMemo(
    () => p.columns.map((c) => ({ id: c.key, accessorFn: (r: RecordRow) => r[c.key], header: c.key, enableSorting: true })),
    [p.columns],
  );
  const { onSortChange, pkField } = p;
  const getRowId = useCallback((r: RecordRow, i: number) => `${pkId(r[pkField])}#${i}`, [pkField]);
  const onSortingChange = useCallback(
    (u: SortingState | ((old: SortingState) => SortingState)) => {
      const next = typeof u === "function" ? u(sorting) : u;
      onSortChange(next.map((s) => ({ key: s.id, direction: s.desc ? "descending" : "ascending" })));
    },
    [sorting, onSortChange],
  );
  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId,
    manualSorting: true,
    enableMultiSort: true,
    enableSortingRemoval: true,
    sortDescFirst: false,
    isMultiSortEvent,
    maxMultiSortColCount: 8,
    state: { sorting },
    onSortingChange,
  });
  // The table is only asked for its headers (sorting): the service sorts and pages, so the rows
  // are shown as they came. Building its row model would cost an object per row (1,000 on a
  // full page) every time new rows arrive.

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    // Rows keep their element by Record, so an open editor (and what is typed in it) moves with
    // its Record when another person's insert or delete shifts the page.
    getItemKey: (i) => (rows[i] ? pkId(rows[i][p.pkField]) : i),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_H,
    overscan: 8,
  });

  const { active, editing, selected, conflicts, saving, rangeAnchor, focusWanted } = useGridStore();
  const initialText = useRef<string | undefined>(undefined);
  const wantFocus = useRef(false);
  const readOnlyNoticeAt = useRef(0);
  const width = SEL_W + p.columns.reduce((n, c) => n + c.width, 0);
  const colCount = p.columns.length + 1;
  const pks = useMemo(() => rows.map((r) => r[p.pkField]), [rows, p.pkField]);
  // Latest rows for the row callbacks, so new data does not give every row new callbacks.
  const latest = useRef({ rows, pks });
  latest.current = { rows, pks };

  // Both keyed "<pk>|<field>": split into one map per row (a row re-renders only when its own marks change).
  const conflictsByRow = useMemo(() => byRow(conflicts.entries()), [conflicts]);
  const savingByRow = useMemo(() => byRow([...saving].map((k) => [k, true] as const)), [saving]);

  // Rows are keyed by Record: when the row holding the focus goes (deleted, here or by someone
  // else, or a render after a dialog gave the focus back to that row's box: review 31b #1), the
  // app's one rescue (listenForLostFocus, in the Shell) gives the focus to the active cell.

  // Where the Record being edited is now: rows move under an open editor when another person
  // adds or deletes a Record above it (the edit was then saved into whichever Record took its place).
  const editRow = !editing ? -1 : editing.record === undefined ? editing.row : pks.findIndex((k) => pkId(k) === editing.record);
  // When it has left the page (deleted by someone else), a dialog says so and takes the keys
  // still being typed, which would otherwise edit the Record now in its row (EditLostDialog).
  const [lost, setLost] = useState<EditLost | null>(null);
  useEffect(() => {
    if (!editing || editing.record === undefined || editRow === editing.row) return;
    if (editRow >= 0) return gridActions.editingMoved(editRow);
    const field = p.columns[editing.col - 1]?.key ?? "cell";
    const pk: RecordValue = JSON.parse(editing.record);
    gridActions.stopEdit();
    const by = p.liveTable ? useLiveStore.getState().changedUnder.get(rowKey(p.liveTable, pk)) : undefined;
    setLost({ record: recordKeyText(pk), field, typed: typedInto(`${editing.record}|${field}`) ?? "", by });
  }, [editing, editRow, p.columns, p.liveTable]);

  // Keep the active cell inside the grid when rows or columns change.
  useEffect(() => {
    const row = Math.min(active.row, Math.max(0, rows.length - 1));
    const col = Math.min(active.col, colCount - 1);
    if (row !== active.row || col !== active.col) gridActions.setActive({ row, col });
  }, [rows.length, colCount, active]);

  // The focus, handed over when the grid replaces its placeholder or goes for it (focus-handoff.ts).
  useLayoutEffect(() => {
    const grid = scrollRef.current;
    takeOver(grid?.querySelector<HTMLElement>('[role="gridcell"][tabindex="0"]') ?? grid);
    return () => noteLeaving(grid);
  }, []);

  // Move DOM focus to the active cell after keyboard moves (and after an edit closes): at once
  // when its row is rendered, else after the virtualizer has scrolled it in.
  useLayoutEffect(() => {
    // Also when the cursor is moved from outside (a refused save brings it back) while the
    // focus is on one of the grid's cells: it follows, never taken from elsewhere.
    const onCell = document.activeElement instanceof HTMLElement && document.activeElement.hasAttribute("data-cell") && !!scrollRef.current?.contains(document.activeElement);
    // Or when asked from outside (`focusActive`: a restored cell after signing in again).
    if ((!wantFocus.current && !onCell && !focusWanted) || editing) return;
    const find = () => scrollRef.current?.querySelector<HTMLElement>(`[data-cell="${active.row}:${active.col}"]`);
    const done = () => {
      wantFocus.current = false;
      gridActions.focusDone();
    };
    const el = find();
    if (el) {
      el.focus();
      done();
      return;
    }
    virtualizer.scrollToIndex(active.row, { align: "auto" });
    const id = requestAnimationFrame(() => {
      find()?.focus();
      done();
    });
    return () => cancelAnimationFrame(id);
  }, [active, editing, virtualizer, focusWanted]);

  // Paging from the keyboard replaces every row (the grid itself while the page loads): focus
  // then lands on the same cell of the new page, instead of dropping to <body>.
  const pageFromKeys = (delta: -1 | 1) => {
    refocusAfterPage = true;
    p.onPage(delta);
  };
  useEffect(() => {
    if (!refocusAfterPage || rows.length === 0) return;
    refocusAfterPage = false;
    wantFocus.current = true;
    gridActions.setActive({ row: Math.min(active.row, rows.length - 1), col: active.col });
    scrollRef.current?.querySelector<HTMLElement>(`[data-cell="${Math.min(active.row, rows.length - 1)}:${active.col}"]`)?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the rows change
  }, [rows]);

  const moveTo = useCallback((row: number, col: number) => {
    wantFocus.current = true;
    gridActions.setActive({ row: Math.max(0, Math.min(rows.length - 1, row)), col: Math.max(0, Math.min(colCount - 1, col)) });
  }, [rows.length, colCount]);

  const startEdit = useCallback(
    (row: number, col: number, text?: string) => {
      const column = p.columns[col - 1];
      if (!column || !latest.current.rows[row]) return;
      if (column.readOnly) {
        // Say why nothing happens, once in a while rather than on every key.
        if (Date.now() - readOnlyNoticeAt.current > 4000) {
          readOnlyNoticeAt.current = Date.now();
          if (p.readOnlyWhy) toast(p.readOnlyWhy);
          else toast(`${column.key} is read-only`, { detail: column.joined ? "It comes from the joined table: edit it there." : "Primary keys are not edited in the grid." });
        }
        return;
      }
      initialText.current = text;
      gridActions.startEdit({ row, col }, pkId(latest.current.rows[row][p.pkField]));
    },
    [p.columns, p.readOnlyWhy, p.pkField],
  );

  const { onCommit } = p;
  const commit = useCallback(
    (row: number, col: number, value: RecordValue, move: Move, base: RecordValue | undefined) => {
      const column = p.columns[col - 1];
      const { rows } = latest.current;
      const current = rows[row];
      // Checked against the value the edit began from, not whatever a live change put there since.
      const record = current && column ? { ...current, [column.key]: base === undefined ? current[column.key] : base } : current;
      gridActions.stopEdit();
      const next = move === "down" ? { row: row + 1, col } : move === "right" ? { row, col: col + 1 } : move === "left" ? { row, col: col - 1 } : { row, col };
      const to = { row: Math.min(rows.length - 1, next.row), col: Math.max(1, Math.min(colCount - 1, next.col)) };
      if (column && record && !(sameValue(record[column.key], value) && record[column.key] !== undefined)) onCommit(record, column, value, { from: { row, col }, to });
      wantFocus.current = true;
      gridActions.setActive(to);
    },
    [p.columns, colCount, onCommit],
  );
  const cancel = useCallback(() => {
    wantFocus.current = true;
    gridActions.stopEdit();
  }, []);
  const onSelect = useCallback((index: number, shift: boolean) => gridActions.toggleRow(index, latest.current.pks, shift), []);
  const onCellClick = useCallback((row: number, col: number, shift = false) => {
    if (useGridStore.getState().editing) return;
    gridActions.setActive({ row, col }, shift && col > 0);
  }, []);
  const { onOpenRecord } = p;
  const onOpen = useCallback((row: number) => onOpenRecord?.(row), [onOpenRecord]);
  const onCellDoubleClick = useCallback((row: number, col: number) => startEdit(row, col), [startEdit]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (editing || isTypingTarget(e.target)) return;
    // Only keys pressed on a body cell: Enter or Space on a header button (sort) or the
    // select-all box must do what those controls do, not edit or select the active row.
    if (headerMenuKey(e)) return;
    if (selectionDeleteKey(e)) return;
    if (!(e.target instanceof HTMLElement && e.target.dataset.cell)) return;
    const { row, col } = active;
    if (handleGridKey(e, { active, rows, columns: p.columns, rangeAnchor, moveTo, openRecord: onOpen })) return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => {
        // Past the last row: into the blank row for a new Record, when there is one.
        const below = row === rows.length - 1 && scrollRef.current?.querySelector<HTMLElement>(`[data-new-col="${CSS.escape(p.columns[col - 1]?.key ?? "")}"]`);
        if (below) below.focus();
        else moveTo(row + 1, col);
      },
      ArrowUp: () => {
        // Above the first row: its column's header (review 55b #3: only Tab reached the header row).
        const head = row === 0 ? (col === 0 ? scrollRef.current?.closest("[role=grid]")?.querySelector<HTMLElement>(".grid-head .sel input") : scrollRef.current?.closest("[role=grid]")?.querySelectorAll<HTMLElement>(".grid-head .th-btn")[col - 1]) : undefined;
        if (head) head.focus();
        else moveTo(row - 1, col);
      },
      ArrowRight: () => moveTo(row, col + 1),
      ArrowLeft: () => moveTo(row, col - 1),
      Home: () => {
        // The first column is sticky, so focusing it scrolls nothing: the row's start is brought back too.
        if (scrollRef.current) scrollRef.current.scrollLeft = 0;
        moveTo(e.ctrlKey ? 0 : row, 0);
      },
      End: () => moveTo(e.ctrlKey ? rows.length - 1 : row, colCount - 1),
      PageDown: () => moveTo(row + 15, col),
      PageUp: () => moveTo(row - 15, col),
      Enter: () => (col === 0 ? gridActions.toggleRow(row, pks, e.shiftKey) : startEdit(row, col)),
      F2: () => startEdit(row, col),
      // Space on a data cell opens the Record (as in Airtable); on the checkbox, or with Shift, it selects.
      " ": () => (col > 0 && !e.shiftKey && p.onOpenRecord ? p.onOpenRecord(row) : gridActions.toggleRow(row, pks, e.shiftKey)),
      "[": () => pageFromKeys(-1),
      "]": () => pageFromKeys(1),
    };
    const fn = keys[e.key];
    if (fn && !e.altKey && !e.metaKey) {
      e.preventDefault();
      fn();
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && col > 0 && e.key !== "?") {
      // Typing on a cell starts editing with that character, as in a spreadsheet.
      e.preventDefault();
      startEdit(row, col, e.key);
    }
  };

  const rangeRect = rangeAnchor ? rectOf(active, rangeAnchor) : null;
  const inRange = (i: number) => !!rangeRect && i >= rangeRect.top && i <= rangeRect.bottom;

  // One pass over the page's keys, and none while nothing is selected (the usual case).
  const { pageSelected, someSelected } = useMemo(() => {
    if (selected.size === 0) return { pageSelected: false, someSelected: false };
    let n = 0;
    for (const pk of pks) if (selected.has(pkId(pk))) n++;
    return { pageSelected: pks.length > 0 && n === pks.length, someSelected: n > 0 };
  }, [pks, selected]);

  return (
    <>
    <div
      ref={scrollRef}
      className="grid"
      role="grid"
      aria-label={p.label}
      // The header row, every Record, and the blank row after the last when there is one (its
      // index is after the table's last Record, not the page's: review 52b #5).
      aria-rowcount={p.totalRows === undefined ? -1 : p.totalRows + 1 + (p.footer ? 1 : 0)}
      aria-colcount={colCount}
      aria-multiselectable="true"
      onKeyDown={onKeyDown}
      onPaste={(e) => !editing && !isTypingTarget(e.target) && onGridPaste(e, active)}
      onContextMenu={(e) => !editing && onGridContextMenu(e)}
      onFocus={(e) => {
        // Tabbing into the grid lands on the active cell.
        if (e.target === scrollRef.current) moveTo(active.row, active.col);
      }}
      tabIndex={rows.length === 0 ? 0 : -1}
    >
      <GridHeader
        width={width}
        columns={p.columns}
        sort={p.sort}
        headers={table.getHeaderGroups()[0]?.headers}
        pageSelected={pageSelected}
        someSelected={someSelected}
        pks={pks}
        onResize={p.onResize}
      />
      <div role="rowgroup" className="grid-body" style={{ height: virtualizer.getTotalSize(), width }}>
        {virtualizer.getVirtualItems().map((vi) => {
          const row = rows[vi.index];
          const id = pkId(row[p.pkField]);
          return (
            <GridRow
              key={vi.key}
              row={row}
              index={vi.index}
              ariaRowIndex={p.rowOffset + vi.index + 2}
              start={vi.start}
              width={width}
              columns={p.columns}
              pkField={p.pkField}
              selected={selected.has(id)}
              activeCol={active.row === vi.index ? active.col : -1}
              editingCol={editRow === vi.index && editing ? editing.col : -1}
              initialText={editRow === vi.index ? initialText.current : undefined}
              conflicts={conflictsByRow.get(id)}
              saving={savingByRow.get(id)}
              rangeFrom={inRange(vi.index) ? rangeRect!.left : -1}
              rangeTo={inRange(vi.index) ? rangeRect!.right : -1}
              onOpen={p.onOpenRecord ? onOpen : undefined}
              onSelect={onSelect}
              onCellClick={onCellClick}
              onCellDoubleClick={onCellDoubleClick}
              onCommit={commit}
              onCancel={cancel}
              {...marks.get(recordKeyText(row[p.pkField]))}
              isOpen={p.openRecord !== undefined && recordKeyText(row[p.pkField]) === p.openRecord}
            />
          );
        })}
      </div>
      {p.footer}
    </div>
    {/* Outside the grid: its keys are the dialog's, not the grid's (which start edits). */}
    {lost && <EditLostDialog lost={lost} onClose={() => setLost(null)} fallbackFocus={() => scrollRef.current?.querySelector<HTMLElement>('[role="gridcell"][tabindex="0"]')} />}
    </>
  );
});

/** "<pk>|<field>" keys → per row, per field. */
function byRow<T>(entries: Iterable<readonly [string, T]>): Map<string, Map<string, T>> {
  const m = new Map<string, Map<string, T>>();
  for (const [k, v] of entries) {
    const i = k.lastIndexOf("|");
    const row = k.slice(0, i);
    if (!m.has(row)) m.set(row, new Map());
    m.get(row)!.set(k.slice(i + 1), v);
  }
  return m;
}
