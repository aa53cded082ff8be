/**
 * Deleting Records from the app (issue 24 item 2): read them whole first (undo re-inserts them
 * with their values), delete by primary key with the count the user confirmed (the service
 * deletes nothing when it finds another count), then record the undo entry.
 */
import type { FilterGroup } from "../../../shared/filter";
import type { RecordRow, RecordValue } from "../../../shared/records";
import { pkFilter } from "../grid/edit.utils";
import { deleteRecords } from "../records-write-mutation";
import { queryRecords } from "../records-list-query";
import { undoActions } from "../undo/undo-store";

export async function deleteWithUndo(db: string, table: string, pkField: string, pks: readonly RecordValue[]): Promise<RecordRow[]> {
  const { items } = await queryRecords(db, table, { filter: { and: [pkFilter(pkField, pks)] }, limit: pks.length });
  if (!items.length) return [];
  const deleted = await deleteRecords(db, table, { and: [pkFilter(pkField, items.map((r) => r[pkField]))] }, items.length);
  recordDeleteUndo(db, table, pkField, items, deleted);
  return items;
}

/** The undo step of a delete: re-inserting the Records it removed, with their values. */
function recordDeleteUndo(db: string, table: string, pkField: string, records: RecordRow[], count = records.length): void {
  undoActions.record({
    id: `${Date.now()}-delete`,
    label: `Delete ${count.toLocaleString("en-US")} Record${count === 1 ? "" : "s"}`,
    db,
    table,
    pkField,
    at: Date.now(),
    changes: [],
    rows: { kind: "delete", records },
  });
}

/** A delete by the view's filter keeps every Record for its undo: at most this many at once. */
export const DELETE_MATCHING_MAX = 10_000;
const PAGE = 1_000;

/**
 * Deletes every Record the view's filter matches, `expected` of them as the person confirmed
 * (review 46b #9: only a page's selection could be deleted). They are read whole first, a
 * thousand at a time in key order (undo re-inserts them); when the filter matches another number
 * by then nothing is deleted. Then deleted a thousand at a time by key, each with its count, and
 * one undo entry made of what was deleted, also when a later part fails.
 */
export async function deleteMatchingWithUndo(
  db: string,
  table: string,
  pkField: string,
  filter: FilterGroup,
  expected: number,
  onProgress: (done: number) => void,
): Promise<RecordRow[]> {
  if (expected > DELETE_MATCHING_MAX) throw new Error(`This filter matches ${expected.toLocaleString("en-US")} Records; at most ${DELETE_MATCHING_MAX.toLocaleString("en-US")} are deleted at once by a filter (each is kept for Undo). Narrow the filter and delete in parts.`);
  const items: RecordRow[] = [];
  for (;;) {
    const page = await queryRecords(db, table, { filter, sort: [{ key: pkField, direction: "ascending" }], limit: PAGE, skip: items.length });
    items.push(...page.items);
    if (page.items.length < PAGE || items.length > expected) break;
  }
  if (items.length !== expected) {
    throw new Error(`The filter now matches ${items.length.toLocaleString("en-US")} Records, not the ${expected.toLocaleString("en-US")} you confirmed (changed meanwhile): nothing was deleted. Look again, then delete.`);
  }
  const deleted: RecordRow[] = [];
  try {
    for (let i = 0; i < items.length; i += PAGE) {
      const part = items.slice(i, i + PAGE);
      await deleteRecords(db, table, { and: [pkFilter(pkField, part.map((r) => r[pkField]))] }, part.length);
      deleted.push(...part);
      onProgress(deleted.length);
    }
  } finally {
    if (deleted.length) recordDeleteUndo(db, table, pkField, deleted);
  }
  return deleted;
}
