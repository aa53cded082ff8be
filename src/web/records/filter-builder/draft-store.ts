/**
 * Unapplied filter drafts, per table. A draft remembers which applied filter it started from;
 * when the URL's filter changes underneath it (back button, pasted link) the draft restarts.
 */
import { create } from "zustand";
import type { FilterGroup } from "../../../shared/filter";
import { addChild, fromWire, type GroupNode, newCondition } from "./filter-tree.utils";

interface Draft {
  root: GroupNode;
  base: string;
}

export const useDraftStore = create<{ drafts: Record<string, Draft> }>(() => ({ drafts: {} }));

export function setDraft(tableKey: string, root: GroupNode, base: string) {
  useDraftStore.setState((s) => ({ drafts: { ...s.drafts, [tableKey]: { root, base } } }));
}

/**
 * "Filter by this Field" (header and cell menus): a new condition on `key` at the end of the
 * table's draft (the applied filter when there is no draft for it), its value then focused once
 * the builder, opened by the caller, has rendered it.
 */
export function addConditionToDraft(tableKey: string, applied: FilterGroup | undefined, key: string): void {
  const stored = useDraftStore.getState().drafts[tableKey];
  const base = JSON.stringify(applied ?? null);
  const root = stored && stored.base === base ? stored.root : fromWire(applied);
  setDraft(tableKey, addChild(root, root.id, newCondition(key)), base);
  setTimeout(() => {
    const values = document.querySelectorAll<HTMLElement>(".filter-builder .cond :is(input, select):enabled");
    values[values.length - 1]?.focus();
  }, 50);
}
