/**
 * UI state of the grid: the active cell, the cell being edited, the row selection and conflict
 * markers. Fetched rows never live here (they are TanStack Query's).
 */
import { create } from "zustand";
import type { RecordValue } from "../../../shared/records";

export interface CellPos {
  row: number;
  col: number;
}

export interface Conflict {
  attempted: RecordValue;
  current: RecordValue | undefined;
  /** Set when the save failed (no answer, 5xx): the cell keeps the typed value and offers Retry. */
  failed?: string;
  /** Who changed it, and when, from the audit trail (" by ada@example.com (25 Nov 2026, 10:42)"). */
  by?: string;
}

interface GridState {
  active: CellPos;
  /**
   * The cell being edited, with its Record (pkId): rows move under an open editor when someone
   * else adds or deletes a Record, and the edit belongs to the Record, not the position.
   */
  editing: (CellPos & { record?: string }) | null;
  /** Selected Records by JSON of their primary key. */
  selected: Map<string, RecordValue>;
  anchor: number | null;
  /** "All Records matching the filter", beyond the page. */
  allMatching: boolean;
  conflicts: Map<string, Conflict>;
  /** Cells (conflictKey) whose edit is sent and not yet answered: shown as saving. */
  saving: Set<string>;
  /** The other corner of a cell range (shift+arrows, shift+click); the active cell is one corner. */
  rangeAnchor: CellPos | null;
  /** Set by `focusActive`: the grid scrolls to the active cell and gives it the focus, once. */
  focusWanted: boolean;
}

const initialGridState = (): GridState => ({
  active: { row: 0, col: 1 },
  editing: null,
  selected: new Map(),
  anchor: null,
  allMatching: false,
  conflicts: new Map(),
  saving: new Set(),
  rangeAnchor: null,
  focusWanted: false,
});

export const useGridStore = create<GridState>(initialGridState);

import { pkId } from "./edit.utils";

export { pkId };
export const conflictKey = (pk: RecordValue | undefined, field: string) => `${pkId(pk)}|${field}`;

export const gridActions = {
  /** Moves the active cell; `extend` grows a range from where it was (else the range ends). */
  setActive(active: CellPos, extend = false) {
    const s = useGridStore.getState();
    const rangeAnchor = extend ? (s.rangeAnchor ?? s.active) : null;
    if (!extend && s.rangeAnchor === null) useGridStore.setState({ active });
    else useGridStore.setState({ active, rangeAnchor });
  },
  /** Moves the active cell from outside the grid and takes the focus there (scrolled into view). */
  focusActive(active: CellPos) {
    useGridStore.setState({ active, rangeAnchor: null, focusWanted: true });
  },
  focusDone() {
    if (useGridStore.getState().focusWanted) useGridStore.setState({ focusWanted: false });
  },
  setRangeAnchor(rangeAnchor: CellPos | null) {
    useGridStore.setState({ rangeAnchor });
  },
  startEdit(pos: CellPos, record?: string) {
    useGridStore.setState({ active: pos, editing: { ...pos, record } });
  },
  /** The Record being edited is now at `row` (rows moved under the editor). */
  editingMoved(row: number) {
    const { editing, active } = useGridStore.getState();
    if (!editing) return;
    useGridStore.setState({ editing: { ...editing, row }, active: { ...active, row } });
  },
  stopEdit() {
    useGridStore.setState({ editing: null });
  },
  /** Toggle one row; with `range`, select everything from the anchor to it. */
  toggleRow(index: number, pks: readonly RecordValue[], range: boolean) {
    const { selected, anchor } = useGridStore.getState();
    const next = new Map(selected);
    if (range && anchor !== null) {
      const [a, b] = anchor < index ? [anchor, index] : [index, anchor];
      const on = !selected.has(pkId(pks[index]));
      for (let i = a; i <= b; i++) {
        if (on) next.set(pkId(pks[i]), pks[i]);
        else next.delete(pkId(pks[i]));
      }
    } else {
      const id = pkId(pks[index]);
      if (next.has(id)) next.delete(id);
      else next.set(id, pks[index]);
    }
    useGridStore.setState({ selected: next, anchor: index, allMatching: false });
  },
  setPage(pks: readonly RecordValue[], on: boolean) {
    const next = new Map(useGridStore.getState().selected);
    for (const pk of pks) {
      if (on) next.set(pkId(pk), pk);
      else next.delete(pkId(pk));
    }
    useGridStore.setState({ selected: next, allMatching: false });
  },
  /** Records gone (deleted by someone else) leave the selection, so its count and bulk actions name only what is there. */
  deselect(ids: readonly string[]) {
    const { selected } = useGridStore.getState();
    if (!ids.some((id) => selected.has(id))) return;
    const next = new Map(selected);
    for (const id of ids) next.delete(id);
    useGridStore.setState({ selected: next });
  },
  selectAllMatching(on: boolean) {
    useGridStore.setState({ allMatching: on });
  },
  clearSelection() {
    useGridStore.setState({ selected: new Map(), anchor: null, allMatching: false });
  },
  setSaving(key: string, on: boolean) {
    const now = useGridStore.getState().saving;
    if (now.has(key) === on) return;
    const next = new Set(now);
    if (on) next.add(key);
    else next.delete(key);
    useGridStore.setState({ saving: next });
  },
  setConflict(key: string, c: Conflict | null) {
    const next = new Map(useGridStore.getState().conflicts);
    if (c) next.set(key, c);
    else next.delete(key);
    useGridStore.setState({ conflicts: next });
  },
  reset() {
    // Nothing to reset (the usual case after Apply): no new objects, so nothing re-renders.
    const s = useGridStore.getState();
    const clean = s.active.row === 0 && s.active.col === 1 && !s.editing && !s.selected.size && s.anchor === null && !s.allMatching && !s.conflicts.size && !s.saving.size && !s.rangeAnchor;
    if (clean) return;
    useGridStore.setState(initialGridState());
  },
};
