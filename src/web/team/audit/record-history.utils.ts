/**
 * A Record's versions from its audit entries (newest first), and what "Restore this version"
 * must set: for every Field changed after that version, its value before the first of those
 * later changes. Pure: the panel's History tab and its test use it.
 */
import { type RecordRow, type RecordValue, recordKeyText } from "../../../shared/records";
import type { AuditItem } from "./audit-list-query";

export interface FieldChange {
  field: string;
  before: RecordValue | undefined;
  after: RecordValue | undefined;
}

export interface RecordVersion {
  seq: number;
  at: string;
  actor: string;
  action: string;
  /**
   * "changed" for updates and imports, "added" for an insert, "deleted" for a delete; "maybe"
   * for a change past the before-images' limit that may have touched it (its values not kept).
   */
  what: "changed" | "added" | "deleted" | "maybe";
  fields: FieldChange[];
  /** The Fields and values that bring the Record back to this version; undefined when it is current. */
  target?: Record<string, RecordValue>;
  /** Why this version cannot be restored, when it cannot. */
  why?: string;
}

const valuesOf = (o: Record<string, RecordValue> | undefined) => o ?? {};

/** The versions of one Record, newest first. `complete` is false while older pages are unread. */
export function recordVersions(items: readonly AuditItem[], record: string, pkField: string): RecordVersion[] {
  const out: RecordVersion[] = [];
  for (const it of items) {
    if (it.outcome !== "applied") continue;
    if (it.partial) {
      out.push({ seq: it.seq, at: it.at, actor: it.actor, action: it.action, what: "maybe", fields: [] });
      continue;
    }
    const change = it.changes?.find((c) => recordKeyText(c.key) === record);
    if (change) {
      const before = valuesOf(change.before);
      const after = valuesOf(change.after);
      const names = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter((f) => f !== pkField);
      out.push({ seq: it.seq, at: it.at, actor: it.actor, action: it.action, what: "changed", fields: names.map((field) => ({ field, before: before[field], after: after[field] })) });
    } else if (it.action === "insert" || (it.action === "import" && !it.changes)) {
      const row = it.records?.find((r) => String(r[pkField]) === record);
      if (it.action === "insert" && !row && !it.keys.includes(record)) continue;
      out.push({ seq: it.seq, at: it.at, actor: it.actor, action: it.action, what: "added", fields: row ? Object.entries(row).filter(([f]) => f !== pkField).map(([field, v]) => ({ field, before: undefined, after: v })) : [] });
    } else if (it.action === "delete-records") {
      out.push({ seq: it.seq, at: it.at, actor: it.actor, action: it.action, what: "deleted", fields: [] });
    }
  }
  // Targets: walk from each version towards the newest, keeping the first "before" per Field.
  for (let i = 0; i < out.length; i++) {
    const target: Record<string, RecordValue> = {};
    let deletedSince = false;
    let unknownSince = false;
    for (let j = i - 1; j >= 0; j--) {
      // Deleted since, unless added again after (newer: smaller j), as Undo of a delete does.
      if (out[j].what === "deleted") deletedSince = true;
      if (out[j].what === "added") deletedSince = false;
      if (out[j].what === "maybe") unknownSince = true;
      if (out[j].what !== "changed") continue;
      for (const f of out[j].fields) if (!(f.field in target) && f.before !== undefined) target[f.field] = f.before;
    }
    if (out[i].what === "maybe") out[i].why = "More than 10,000 Records matched this change; this Record's values were not kept.";
    else if (i === 0) out[i].why = "This is the current version.";
    else if (unknownSince) out[i].why = "A change since may have changed this Record without keeping its values: compare with the Record before restoring by hand.";
    else if (deletedSince) out[i].why = "The Record was deleted since; undo the delete first.";
    else if (out[i].what === "deleted") out[i].why = "This version is the deletion.";
    else if (Object.keys(target).length === 0) out[i].why = "Nothing changed since this version.";
    else out[i].target = target;
  }
  return out;
}

/** The Fields of `target` whose current value differs: what a restore sends. */
export function restoreValues(current: RecordRow, target: Record<string, RecordValue>, same: (a: RecordValue | undefined, b: RecordValue | undefined) => boolean): { field: string; from: RecordValue; to: RecordValue }[] {
  return Object.entries(target)
    .filter(([f, v]) => f in current && !same(current[f], v))
    .map(([field, to]) => ({ field, from: current[field] ?? null, to }));
}
