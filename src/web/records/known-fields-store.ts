/**
 * Fields learnt from earlier answers, per table, kept in localStorage (`baseboard.fields.v1`) so
 * that the filter builder, the Columns list and the JSON view survive a page of nulls, a filter
 * that matches nothing, hidden columns and a reload. Only this slice touches storage; the rules
 * are in known-fields.utils.ts.
 */
import { create } from "zustand";
import { type KnownField, mergeKnownFields, readKnownFieldsMap } from "./known-fields.utils";

const KEY = "baseboard.fields.v1";

function load(): Record<string, KnownField[]> {
  try {
    return readKnownFieldsMap(globalThis.localStorage?.getItem(KEY) ?? null);
  } catch {
    return {};
  }
}

export const useKnownFieldsStore = create<{ tables: Record<string, readonly KnownField[]> }>(() => ({ tables: load() }));

export const knownFieldsKey = (db: string, table: string) => `${db}/${table}`;

const EMPTY: readonly KnownField[] = [];
export const selectKnownFields = (db: string, table: string) => (s: { tables: Record<string, readonly KnownField[]> }) =>
  s.tables[knownFieldsKey(db, table)] ?? EMPTY;

export const knownFieldsActions = {
  /** Adds what one answer taught about each table; writes only when something changed. */
  learn(db: string, learnt: Record<string, readonly KnownField[]>) {
    const { tables } = useKnownFieldsStore.getState();
    let next: Record<string, readonly KnownField[]> | undefined;
    for (const [table, fields] of Object.entries(learnt)) {
      const k = knownFieldsKey(db, table);
      const before = tables[k] ?? EMPTY;
      const after = mergeKnownFields(before, fields);
      if (after !== before) {
        next ??= { ...tables };
        next[k] = after;
      }
    }
    if (!next) return;
    useKnownFieldsStore.setState({ tables: next });
    try {
      localStorage.setItem(KEY, JSON.stringify(next));
    } catch {
      // Quota or private mode: the Fields are still known for this session.
    }
  },
};
