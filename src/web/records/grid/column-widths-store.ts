/**
 * Column widths the user chose, per table, remembered in localStorage
 * (`baseboard.widths.v1`: {"db/table": {"field": px}}). Saved views carry their own copy.
 */
import { create } from "zustand";
import type { GridColumn } from "./columns.utils";

const KEY = "baseboard.widths.v1";
export const MIN_COL_W = 60;
export const MAX_COL_W = 800;

export type Widths = Record<string, number>;

function load(): Record<string, Widths> {
  try {
    const data = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? "{}") as unknown;
    return data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, Widths>) : {};
  } catch {
    return {};
  }
}

export const useWidthStore = create<{ byTable: Record<string, Widths> }>(() => ({ byTable: load() }));

let saveTimer: ReturnType<typeof setTimeout> | undefined;
function flush() {
  if (saveTimer === undefined) return;
  clearTimeout(saveTimer);
  saveTimer = undefined;
  try {
    localStorage.setItem(KEY, JSON.stringify(useWidthStore.getState().byTable));
  } catch {
    // Quota or private mode: widths last for this session.
  }
}
function save() {
  // A drag sets a width per pointer move: write once it settles (or as the page goes away).
  clearTimeout(saveTimer);
  saveTimer = setTimeout(flush, 200);
}
globalThis.addEventListener?.("pagehide", flush);

export const widthActions = {
  set(tableKey: string, field: string, width: number) {
    const byTable = useWidthStore.getState().byTable;
    useWidthStore.setState({ byTable: { ...byTable, [tableKey]: { ...byTable[tableKey], [field]: width } } });
    save();
  },
  replace(tableKey: string, widths: Widths | undefined) {
    const byTable = { ...useWidthStore.getState().byTable };
    if (widths && Object.keys(widths).length) byTable[tableKey] = { ...widths };
    else delete byTable[tableKey];
    useWidthStore.setState({ byTable });
    save();
  },
};

/** Columns with the user's widths (the same objects when none is set, so memoized rows stay). */
export function withWidths(columns: GridColumn[], widths: Widths | undefined): GridColumn[] {
  if (!widths) return columns;
  return columns.map((c) => {
    const w = widths[c.key];
    return typeof w === "number" && Number.isFinite(w) && w !== c.width ? { ...c, width: Math.max(MIN_COL_W, Math.min(MAX_COL_W, w)) } : c;
  });
}
