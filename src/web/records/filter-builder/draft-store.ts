/**
 * Unapplied filter drafts, per table. A draft remembers which applied filter it started from;
 * when the URL's filter changes underneath it (back button, pasted link) the draft restarts.
 */
import { create } from "zustand";
import type { GroupNode } from "./filter-tree.utils";

interface Draft {
  root: GroupNode;
  base: string;
}

export const useDraftStore = create<{ drafts: Record<string, Draft> }>(() => ({ drafts: {} }));

export function setDraft(tableKey: string, root: GroupNode, base: string) {
  useDraftStore.setState((s) => ({ drafts: { ...s.drafts, [tableKey]: { root, base } } }));
}
