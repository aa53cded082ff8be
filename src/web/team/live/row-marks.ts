/**
 * Per row of a grid: which cells flash (changed by someone else just now), who has the Record
 * open in their panel, who is editing which cell. Strings, so the memoized rows compare cheaply.
 */
import { useMemo } from "react";
import { useMay } from "../me-get-query";
import { useLiveStore } from "./live-store";
import { TAB_ID } from "./tab-id";

export interface RowMarks {
  /** Flashing Fields, joined by "\n". */
  flash?: string;
  /** "Ada Admin (ada@example.com)" of those with the Record open, joined by ", ". */
  openBy?: string;
  /** "field\tName" of cells others are editing, joined by "\n". */
  editingBy?: string;
}

export function useRowMarks(table: string, view: string): Map<string, RowMarks> {
  const flashes = useLiveStore((s) => s.flashes);
  const presence = useLiveStore((s) => s.presence);
  const me = useMay().me;
  return useMemo(() => {
    const out = new Map<string, RowMarks>();
    const at = (pkText: string) => {
      let m = out.get(pkText);
      if (!m) out.set(pkText, (m = {}));
      return m;
    };
    const prefix = `${table}|`;
    for (const [k, fields] of flashes) if (k.startsWith(prefix) && fields.size) at(k.slice(prefix.length)).flash = [...fields.keys()].join("\n");
    const now = Date.now();
    for (const p of presence.values()) {
      if (p.view !== view || p.tab === TAB_ID || p.until < now || (me && p.email === me.email)) continue;
      const who = `${p.name} (${p.email})`;
      if (p.record) {
        const m = at(p.record);
        m.openBy = m.openBy ? `${m.openBy}, ${who}` : who;
      }
      if (p.editing) {
        const m = at(p.editing.record);
        const line = `${p.editing.field}\t${p.name}`;
        m.editingBy = m.editingBy ? `${m.editingBy}\n${line}` : line;
      }
    }
    return out;
  }, [flashes, presence, table, view, me]);
}

