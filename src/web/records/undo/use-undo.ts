/**
 * Undo/redo actions: run the restore plan, count what was restored from x-matched-count (or, on
 * an upstream without it, from a count query made just before; nothing is sent when nothing matches), report, refresh the grid
 * and the audit trail's lists.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import { toastError } from "../../app/query-client";
import { toast, type ToastAction, useToastStore } from "../../ui/toast";
import { queryRecords } from "../records-list-query";
import { invalidateTableRecords, updateRecords } from "../records-update-mutation";
import { undoActions, useUndoStore } from "./undo-store";
import { planRestore, type RestoreStep, rowsStep, summarize, summaryText, type UndoEntry } from "./undo.utils";
import { deleteRecords, insertRecords } from "../records-write-mutation";
import { ApiError } from "../../api-client";
import type { UpdateBody } from "../../../shared/records";
import { UNDO_HEADER } from "../../../shared/record-writes";
import { pkFilter, pkId } from "../grid/edit.utils";
import { sameValue } from "../values/values.utils";

/** json Fields: read the Records, keep those still holding `from`, update only them. */
async function restoreByReading(db: string, table: string, pkField: string, values: UpdateBody["values"], check: NonNullable<RestoreStep["check"]>, marked: Record<string, string>): Promise<number> {
  const { items } = await queryRecords(db, table, { filter: pkFilter(pkField, check.pks), select: [pkField, check.field], limit: check.pks.length });
  const still = items.filter((r) => sameValue(r[check.field], check.from)).map((r) => r[pkField]);
  if (!still.length) return 0;
  const out = await updateRecords(db, table, { values, filter: pkFilter(pkField, still) }, marked);
  return out.matched ?? still.length;
}

/** The header that tells the audit trail a request is an undo or redo, and of what. */
const undoMark = (entry: UndoEntry, direction: "undo" | "redo") => ({ [UNDO_HEADER]: encodeURIComponent(`${direction}: ${entry.label}`) });

/**
 * Re-inserts `part`; when some of its keys are taken again (a Record added since), the others go
 * back and those are returned, not put back (review 48b #1: one reused key of 72 brought none of
 * them back, and the step could only fail again).
 */
async function insertBack(entry: UndoEntry, part: RecordValueRow[], marked: Record<string, string>): Promise<RecordValueRow[]> {
  try {
    await insertRecords(entry.db, entry.table, part, marked);
    return [];
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 409)) throw e;
    const { pkField } = entry;
    const { items } = await queryRecords(entry.db, entry.table, { filter: pkFilter(pkField, part.map((r) => r[pkField])), select: [pkField], limit: part.length });
    const taken = new Set(items.map((r) => pkId(r[pkField])));
    if (!taken.size) throw e;
    const rest = part.filter((r) => !taken.has(pkId(r[pkField])));
    if (rest.length) await insertRecords(entry.db, entry.table, rest, marked);
    return part.filter((r) => taken.has(pkId(r[pkField])));
  }
}
type RecordValueRow = NonNullable<UndoEntry["rows"]>["records"][number];

/**
 * Whole Records back or away again: re-inserted with their values (those whose keys are taken
 * again stay out, named), or deleted only if exactly these are all still there.
 */
async function restoreRows(entry: UndoEntry, direction: "undo" | "redo"): Promise<{ text: string; skipped: number }> {
  const { records } = entry.rows!;
  const n = records.length;
  const noun = `Record${n === 1 ? "" : "s"}`;
  const verb = direction === "undo" ? "Undone" : "Redone";
  const inserting = rowsStep(entry, direction) === "insert";
  const skipped: RecordValueRow[] = [];
  // A request takes at most 1,000 Records (insert) or keys (delete: 5,000 conditions and 1 MiB
  // at most): an import's 6,000 added Records went in one delete, refused every time.
  let done = 0;
  try {
    for (; done < n; done += ROWS_PER_REQUEST) {
      const part = records.slice(done, done + ROWS_PER_REQUEST);
      if (inserting) skipped.push(...(await insertBack(entry, part, undoMark(entry, direction))));
      else await deleteRecords(entry.db, entry.table, pkFilter(entry.pkField, part.map((r) => r[entry.pkField])), part.length, undoMark(entry, direction));
    }
  } catch (e) {
    const why = e instanceof ApiError && e.status === 409 ? `${e.message} Those Records changed since.` : (e as Error).message;
    if (done === 0) throw e instanceof ApiError && e.status === 409 ? new Error(`${why} Nothing was written.`, { cause: e }) : e;
    // Each request is whole or nothing, the steps together are not: what is left is what the
    // next try does (the ones done would be refused as changed since).
    undoActions.rowsLeft(entry.id, records.slice(done));
    throw new Error(`${done.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} ${noun} were ${inserting ? "put back" : "removed"}, then: ${why} Try again to do the other ${(n - done).toLocaleString("en-US")}.`, { cause: e });
  }
  if (skipped.length) {
    const back = n - skipped.length;
    const keys = skipped.slice(0, 5).map((r) => String(r[entry.pkField])).join(", ") + (skipped.length > 5 ? ` and ${(skipped.length - 5).toLocaleString("en-US")} more` : "");
    return {
      text: `${verb}: ${back.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} ${noun} back, with their values. Not put back, because a Record added since has the key: ${keys} (their values are in each one's History).`,
      skipped: skipped.length,
    };
  }
  return { text: inserting ? `${verb}: ${n.toLocaleString("en-US")} ${noun} back, with their values.` : `${verb}: ${n.toLocaleString("en-US")} ${noun} ${direction === "redo" ? "deleted again" : "removed"}.`, skipped: 0 };
}

/** Records (or keys) per insert or delete request of an undo or redo. */
export const ROWS_PER_REQUEST = 1_000;

/** The Undo button of a success toast reaches the undo of the workspace that is open. */
let undoRunner: ((only?: string) => void) | undefined;

/**
 * The Undo button for the toast of the change just recorded (issue 24 item 7). It undoes that
 * change and no other: a toast still on screen after Ctrl+Z undid its change, or after later
 * changes, must not undo whatever is last now. Called when the toast is made, right after the
 * change was recorded for undo.
 */
export function undoLast(): ToastAction {
  const id = useUndoStore.getState().past.at(-1)?.id ?? "";
  return {
    label: "Undo",
    key: id && `undo:${id}`,
    run: () => {
      // Not the last change any more: say why, and keep the toast for when it is again.
      if (useUndoStore.getState().past.at(-1)?.id !== id) {
        toast(notLastWhy(id));
        return false;
      }
      undoRunner?.(id);
    },
  };
}

/** Why the change `id` is not the one an undo would take back now. */
function notLastWhy(id: string): string {
  const { past, future } = useUndoStore.getState();
  if (future.some((e) => e.id === id)) return "That change was undone already.";
  if (past.some((e) => e.id === id)) return "Changes were made after that one: undo them first (Undo, Ctrl+Z, goes back one change at a time).";
  return "That change can no longer be undone here.";
}

/** The stacks moved one step; an undone change's Undo toast goes (its button would now lie). */
function moved(direction: "undo" | "redo", entry: UndoEntry): void {
  if (direction === "undo") {
    undoActions.movedBack();
    useToastStore.getState().dismissAction(`undo:${entry.id}`);
  } else undoActions.movedForward();
}

export function useUndoRedo() {
  const qc = useQueryClient();
  const run = useCallback(
    async (direction: "undo" | "redo", only?: string) => {
      const state = useUndoStore.getState();
      if (state.busy) return;
      const entry = direction === "undo" ? state.past[state.past.length - 1] : state.future[state.future.length - 1];
      if (only !== undefined && entry?.id !== only) {
        toast(notLastWhy(only));
        return;
      }
      if (!entry) {
        toast(direction === "undo" ? "Nothing to undo" : "Nothing to redo");
        return;
      }
      undoActions.setBusy(true);
      const results: { expected: number; matched: number }[] = [];
      // A long undo (an import's thousands of Records, a bulk update's many old values) said
      // nothing for 20 s while the grid kept the new values: it says it is working, until done.
      const requests = Math.ceil((entry.rows?.records.length ?? 0) / ROWS_PER_REQUEST) + planRestore(entry, direction).length;
      const working = requests > 3 ? toast(`${direction === "undo" ? "Undoing" : "Redoing"} "${entry.label}"…`, { detail: `${requests.toLocaleString("en-US")} requests; the grid shows the result when it is done.`, ttlMs: 0 }) : undefined;
      try {
        // Whole Records first (an import's added ones), then the cells (its updated ones).
        const rows = entry.rows?.records.length ? await restoreRows(entry, direction) : undefined;
        const rowsText = rows?.text ?? "";
        if (rows && entry.changes.length === 0) {
          moved(direction, entry);
          toast(rowsText, { kind: rows.skipped ? "info" : "success", detail: `${entry.label} (${entry.db}/${entry.table})`, ...(rows.skipped ? { ttlMs: 20_000 } : {}) });
          return;
        }
        for (const step of planRestore(entry, direction)) {
          if (step.check) {
            results.push({ expected: step.expected, matched: await restoreByReading(entry.db, entry.table, entry.pkField, step.body.values, step.check, undoMark(entry, direction)) });
            continue;
          }
          // Counted just before writing, for upstreams that do not send x-matched-count.
          const before = (await queryRecords(entry.db, entry.table, { filter: step.body.filter, limit: 0 })).count;
          const out = before > 0 ? await updateRecords(entry.db, entry.table, step.body, undoMark(entry, direction)) : { matched: 0 };
          results.push({ expected: step.expected, matched: (out.matched ?? before) * (step.cellsPerRecord ?? 1) });
        }
        moved(direction, entry);
        const s = summarize(results);
        const cells = summaryText(direction, s).replace(/^(Undone|Redone): (.)/, (_, _v: string, c: string) => c.toUpperCase());
        toast(rowsText ? `${rowsText} ${cells}` : summaryText(direction, s), { kind: s.changedSince ? "info" : "success", detail: `${entry.label} (${entry.db}/${entry.table})`, ttlMs: s.changedSince ? 10_000 : 5000 });
      } catch (e) {
        if (e instanceof ApiError && e.status === 403) {
          // Refused for this person's role: it would be refused every time, and stand before
          // every earlier step. It goes, and the earlier ones can still be undone.
          undoActions.dropNext(direction);
          useToastStore.getState().dismissAction(`undo:${entry.id}`);
          toast(`${direction === "undo" ? "Undo" : "Redo"} refused: ${e.message}`, {
            kind: "error",
            detail: `"${entry.label}" was taken off the ${direction} list${direction === "undo" ? "; earlier changes can still be undone" : ""}.`,
            ttlMs: 10_000,
          });
        } else toastError(e, direction === "undo" ? "Undo failed" : "Redo failed");
      } finally {
        if (working !== undefined) useToastStore.getState().dismiss(working);
        undoActions.setBusy(false);
        // The trail recorded the undo too: the History tab and Activity refresh with the grid.
        await invalidateTableRecords(qc, entry.db, entry.table);
      }
    },
    [qc],
  );
  const undo = useCallback(() => run("undo"), [run]);
  useEffect(() => {
    undoRunner = (only) => void run("undo", only);
    return () => {
      if (undoRunner) undoRunner = undefined;
    };
  }, [run]);
  return { undo, redo: useCallback(() => run("redo"), [run]) };
}
