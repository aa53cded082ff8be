/**
 * Sending a planned paste: one guarded update per Record, four at a time. A Record changed
 * elsewhere since it was shown matches nothing and is counted as a conflict (nothing of it is
 * written); what was applied becomes one undo step.
 */
import type { RecordValue } from "../../../shared/records";
import { equalCond } from "../grid/edit.utils";
import { sameValue } from "../values/values.utils";
import { queryRecords } from "../records-list-query";
import { updateRecords } from "../records-update-mutation";
import type { Change } from "../undo/undo.utils";
import type { RecordUpdate } from "./paste.utils";

export interface PasteOutcome {
  applied: RecordUpdate[];
  conflicts: RecordUpdate[];
  errors: { update: RecordUpdate; message: string }[];
}

async function readBack(db: string, table: string, pkField: string, pk: RecordValue, keys: string[]) {
  const r = await queryRecords(db, table, { filter: { and: [equalCond(pkField, pk)] }, select: [pkField, ...keys.filter((k) => k !== pkField)], limit: 1 });
  return r.items[0];
}

async function applyOne(db: string, table: string, pkField: string, u: RecordUpdate): Promise<boolean> {
  if (u.readCheck.length) {
    // json values can only be tested for null by a filter: compare them by reading first.
    const row = await readBack(db, table, pkField, u.pk, u.readCheck.map((c) => c.field.key));
    if (!row || u.readCheck.some((c) => !sameValue(row[c.field.key], c.before))) return false;
  }
  const out = await updateRecords(db, table, u.body);
  if (out.matched !== undefined) return out.matched > 0;
  // The hosted interface does not say how many matched: read the Record back.
  const row = await readBack(db, table, pkField, u.pk, u.changes.map((c) => c.field.key));
  return !!row && u.changes.every((c) => sameValue(row[c.field.key], c.after));
}

export async function applyUpdates(db: string, table: string, pkField: string, updates: readonly RecordUpdate[], onProgress?: (done: number) => void): Promise<PasteOutcome> {
  const out: PasteOutcome = { applied: [], conflicts: [], errors: [] };
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < updates.length) {
      const u = updates[next++];
      try {
        if (await applyOne(db, table, pkField, u)) out.applied.push(u);
        else out.conflicts.push(u);
      } catch (e) {
        out.errors.push({ update: u, message: (e as Error).message });
      }
      onProgress?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, updates.length) }, worker));
  return out;
}

export function undoChanges(applied: readonly RecordUpdate[]): Change[] {
  return applied.flatMap((u) => u.changes.map((c) => ({ pk: u.pk, field: c.field.key, before: c.before ?? null, after: c.after as RecordValue })));
}
