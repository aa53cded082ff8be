/**
 * Undo and redo as data: an entry records, per Record and field, the value before and the value
 * this app wrote. Restoring sends updates filtered on primary key AND the value we expect to
 * find, so anything changed since by someone else is left alone and counted.
 */
import { type RecordRow, type RecordValue, recordKeyText, type UpdateBody } from "../../../shared/records";
import { equalCond, pkFilter } from "../grid/edit.utils";
import { fmtInt } from "../values/values.utils";

export interface Change {
  pk: RecordValue;
  field: string;
  before: RecordValue;
  after: RecordValue;
}

export interface UndoEntry {
  id: string;
  label: string;
  db: string;
  table: string;
  pkField: string;
  changes: Change[];
  at: number;
  /** json Fields cannot be compared by a filter (only tested for null): checked by reading. */
  jsonFields?: string[];
  /**
   * Whole Records added or removed (issue 24): undo of a delete re-inserts them with their
   * values, redo deletes them again (only if exactly these are still there); an insert the reverse.
   */
  rows?: { kind: "insert" | "delete"; records: RecordRow[] };
}

/** Does undoing (or redoing) this entry insert its Records, or delete them? */
export function rowsStep(entry: UndoEntry, direction: "undo" | "redo"): "insert" | "delete" | undefined {
  if (!entry.rows) return undefined;
  const forward = entry.rows.kind;
  if (direction === "redo") return forward;
  return forward === "insert" ? "delete" : "insert";
}

export interface RestoreStep {
  body: UpdateBody;
  /** How many (Record, field) cells this step should restore if nobody touched them. */
  expected: number;
  /**
   * Set for a json Field holding a value: the filter is on primary key only, and the caller
   * must first read these Records and keep only those whose value is still `from`.
   */
  check?: { field: string; from: RecordValue; pks: RecordValue[] };
  /** Cells each matched Record restores (a step over several Fields of one Record: all or none). */
  cellsPerRecord?: number;
}

/**
 * Updates that move an entry's cells back (undo) or forward again (redo). Cells sharing field,
 * expected current value and target value go into one update, so a bulk edit restores in one
 * call per distinct old value rather than one per Record.
 */
export function planRestore(entry: UndoEntry, direction: "undo" | "redo"): RestoreStep[] {
  const json = new Set(entry.jsonFields ?? []);
  // Several Fields of one Record (a restored version, a panel edit): one update over all of them,
  // filtered on every one still holding what the entry left, so it comes back whole or not at all.
  const one = entry.changes[0];
  if (entry.changes.length > 1 && entry.changes.every((c) => recordKeyText(c.pk) === recordKeyText(one.pk) && !json.has(c.field)) && new Set(entry.changes.map((c) => c.field)).size === entry.changes.length) {
    const from = (c: Change) => (direction === "undo" ? c.after : c.before);
    const to = (c: Change) => (direction === "undo" ? c.before : c.after);
    return [
      {
        body: { values: entry.changes.map((c) => ({ key: c.field, value: to(c) })), filter: { and: [pkFilter(entry.pkField, [one.pk]), ...entry.changes.map((c) => equalCond(c.field, from(c)))] } },
        expected: entry.changes.length,
        cellsPerRecord: entry.changes.length,
      },
    ];
  }
  const groups = new Map<string, { field: string; from: RecordValue; to: RecordValue; pks: RecordValue[] }>();
  for (const c of entry.changes) {
    const from = direction === "undo" ? c.after : c.before;
    const to = direction === "undo" ? c.before : c.after;
    const k = JSON.stringify([c.field, from, to]);
    const g = groups.get(k) ?? { field: c.field, from, to, pks: [] };
    g.pks.push(c.pk);
    groups.set(k, g);
  }
  return [...groups.values()].map((g) => {
    const byRead = json.has(g.field) && g.from !== null;
    return {
      body: {
        values: [{ key: g.field, value: g.to }],
        filter: byRead ? { and: [pkFilter(entry.pkField, g.pks)] } : { and: [pkFilter(entry.pkField, g.pks), equalCond(g.field, g.from)] },
      },
      expected: g.pks.length,
      ...(byRead ? { check: { field: g.field, from: g.from, pks: g.pks } } : {}),
    };
  });
}

export interface RestoreSummary {
  restored: number;
  changedSince: number;
}

export function summarize(results: readonly { expected: number; matched: number }[]): RestoreSummary {
  let restored = 0;
  let changedSince = 0;
  for (const r of results) {
    const m = Math.min(r.matched, r.expected);
    restored += m;
    changedSince += r.expected - m;
  }
  return { restored, changedSince };
}

export function summaryText(direction: "undo" | "redo", s: RestoreSummary): string {
  // Undo restores the old values; redo writes the new ones again.
  const verb = direction === "undo" ? "Undone: restored" : "Redone: wrote again";
  const cells = (n: number) => `${fmtInt(n)} value${n === 1 ? "" : "s"}`;
  if (s.changedSince === 0) return `${verb} ${cells(s.restored)}.`;
  return `${verb} ${cells(s.restored)}; ${cells(s.changedSince)} had changed since and ${s.changedSince === 1 ? "was left as it is" : "were left as they are"}.`;
}

export const MAX_ENTRIES = 50;

export interface UndoStacks {
  past: UndoEntry[];
  future: UndoEntry[];
}

/** A new edit clears the redo stack, as in every editor. */
export function pushEntry(s: UndoStacks, e: UndoEntry): UndoStacks {
  return { past: [...s.past, e].slice(-MAX_ENTRIES), future: [] };
}

export function afterUndo(s: UndoStacks): UndoStacks {
  const e = s.past[s.past.length - 1];
  if (!e) return s;
  return { past: s.past.slice(0, -1), future: [...s.future, e] };
}

export function afterRedo(s: UndoStacks): UndoStacks {
  const e = s.future[s.future.length - 1];
  if (!e) return s;
  return { past: [...s.past, e], future: s.future.slice(0, -1) };
}

/**
 * The step an undo (or redo) would take next, taken off its stack: for a step this person may
 * never take (refused for their role), which would otherwise stand before every earlier one.
 */
export function withoutNext(s: UndoStacks, direction: "undo" | "redo"): UndoStacks {
  return direction === "undo" ? { past: s.past.slice(0, -1), future: s.future } : { past: s.past, future: s.future.slice(0, -1) };
}

/** Stored stacks from localStorage, dropping anything that does not look like an entry. */
export function readStacks(raw: string | null): UndoStacks {
  if (!raw) return { past: [], future: [] };
  try {
    const data = JSON.parse(raw) as Partial<UndoStacks>;
    const valid = (e: unknown): e is UndoEntry =>
      typeof e === "object" &&
      e !== null &&
      Array.isArray((e as UndoEntry).changes) &&
      typeof (e as UndoEntry).pkField === "string" &&
      ((e as UndoEntry).rows === undefined || Array.isArray((e as UndoEntry).rows?.records));
    return {
      past: Array.isArray(data.past) ? data.past.filter(valid) : [],
      future: Array.isArray(data.future) ? data.future.filter(valid) : [],
    };
  } catch {
    return { past: [], future: [] };
  }
}
