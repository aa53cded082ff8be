/**
 * Which of the records workspace's overlays is open: the context menu, the paste preview, the
 * export and import dialogs, the saved-view dialogs. The grid's key and mouse handlers open them
 * here; RecordsOverlays (lazy-loaded) renders them. No fetched data lives here.
 */
import { create } from "zustand";
import type { PasteKind } from "../clipboard/paste.utils";
import type { CellPos } from "../grid/grid-store";

export type MenuTarget = { kind: "cell"; row: number; col: number } | { kind: "header"; col: number };

export interface OverlayState {
  menu: (MenuTarget & { x: number; y: number }) | null;
  /** A clipboard block to preview, pasted with its top-left at `at` (col 1 = first data column). */
  /** A paste, or a clear or fill down (made as a paste of the right shape; named as what it is). */
  paste: { text: string; at: CellPos; kind: PasteKind } | null;
  exporting: "view" | "selection" | null;
  importFile: File | null;
  saveView: boolean;
  manageViews: boolean;
}

const initial = (): OverlayState => ({ menu: null, paste: null, exporting: null, importFile: null, saveView: false, manageViews: false });

export const useOverlayStore = create<OverlayState>(initial);

export const overlayActions = {
  openMenu(menu: NonNullable<OverlayState["menu"]>) {
    useOverlayStore.setState({ menu });
  },
  closeMenu() {
    useOverlayStore.setState({ menu: null });
  },
  paste(text: string, at: CellPos, kind: PasteKind = "paste") {
    useOverlayStore.setState({ paste: { text, at, kind }, menu: null });
  },
  closePaste() {
    useOverlayStore.setState({ paste: null });
  },
  exportView(which: "view" | "selection") {
    useOverlayStore.setState({ exporting: which, menu: null });
  },
  closeExport() {
    useOverlayStore.setState({ exporting: null });
  },
  importFile(file: File | null) {
    useOverlayStore.setState({ importFile: file });
  },
  saveView(open: boolean) {
    useOverlayStore.setState({ saveView: open });
  },
  manageViews(open: boolean) {
    useOverlayStore.setState({ manageViews: open });
  },
  reset() {
    useOverlayStore.setState(initial());
  },
};

/** Anything open? (the lazy overlay module is loaded only then) */
export const anyOverlay = (s: OverlayState) => !!(s.menu || s.paste || s.exporting || s.importFile || s.saveView || s.manageViews);
