/**
 * The undo/redo stacks, kept in localStorage so a reload does not lose them. Only this slice
 * touches storage; the logic is in undo.utils.ts.
 */
import { create } from "zustand";
import { afterRedo, afterUndo, pushEntry, readStacks, type UndoEntry, type UndoStacks, withoutNext } from "./undo.utils";

const KEY = "baseboard.undo.v1";

function load(): UndoStacks {
  try {
    return readStacks(globalThis.localStorage?.getItem(KEY) ?? null);
  } catch {
    return { past: [], future: [] };
  }
}

interface UndoState extends UndoStacks {
  busy: boolean;
}

export const useUndoStore = create<UndoState>(() => ({ ...load(), busy: false }));

function save(s: UndoStacks) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ past: s.past, future: s.future }));
  } catch {
    // Quota or private mode: undo still works for this session.
  }
}

function apply(fn: (s: UndoStacks) => UndoStacks) {
  const next = fn(useUndoStore.getState());
  useUndoStore.setState({ past: next.past, future: next.future });
  save(next);
}

export const undoActions = {
  record(entry: UndoEntry) {
    if (entry.changes.length || entry.rows?.records.length) apply((s) => pushEntry(s, entry));
  },
  movedBack() {
    apply(afterUndo);
  },
  movedForward() {
    apply(afterRedo);
  },
  /** Takes the next undo (or redo) step off its stack: one this person may not take. */
  dropNext(direction: "undo" | "redo") {
    apply((s) => withoutNext(s, direction));
  },
  /** Whole Records of entry `id` were partly put back or removed: the rest is what is left to do. */
  rowsLeft(id: string, records: NonNullable<UndoEntry["rows"]>["records"]) {
    const keep = (list: UndoEntry[]) => list.map((e) => (e.id === id && e.rows ? { ...e, rows: { ...e.rows, records } } : e));
    apply((s) => ({ past: keep(s.past), future: keep(s.future) }));
  },
  setBusy(busy: boolean) {
    useUndoStore.setState({ busy });
  },
};
