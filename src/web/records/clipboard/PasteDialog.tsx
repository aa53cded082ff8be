/**
 * Ctrl/⌘+V on the grid: the preview of every change, then one guarded update per Record, then
 * what happened (applied, conflicts, errors). What was applied is one undo step.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import type { QueryResult, RecordRow } from "../../../shared/records";
import { Dialog } from "../../ui/Dialog";
import { toast, type ToastAction } from "../../ui/toast";
import type { GridColumn } from "../grid/columns.utils";
import type { CellPos } from "../grid/grid-store";
import { pkId } from "../grid/edit.utils";
import { undoLast } from "../undo/use-undo";
import { fmtInt } from "../values/values.utils";
import { undoActions } from "../undo/undo-store";
import { applyUpdates, type PasteOutcome, undoChanges } from "./apply-paste";
import { ChangeTable } from "./ChangeTable";
import { type CellChange, PASTE_WORDS, type PasteKind, planPaste, planUpdates } from "./paste.utils";
import { parseTsv } from "./tsv.utils";
import "./clipboard.css";
import { recordKeys } from "../records-keys";

interface Props {
  db: string;
  table: string;
  text: string;
  at: CellPos;
  kind: PasteKind;
  rows: readonly RecordRow[];
  columns: readonly GridColumn[];
  pkField: string;
  queryKey: readonly unknown[];
  /** Why this person may change nothing here (their role or grant): said instead of a review. */
  readOnlyWhy?: string;
  onClose(): void;
}

const plural = (n: number, one: string, many = `${one}s`) => `${fmtInt(n)} ${n === 1 ? one : many}`;
const activeGridCell = () => document.querySelector<HTMLElement>("[role=grid] .cell.active");

export default function PasteDialog(p: Props) {
  const qc = useQueryClient();
  // The rows as they were when the preview opened: a live change arriving meanwhile must not
  // move the conflict check's "before" under the reviewed preview (it is a conflict instead).
  const [rows] = useState(p.rows);
  const words = PASTE_WORDS[p.kind];
  const planned = useMemo(() => planPaste(parseTsv(p.text), { row: p.at.row, col: p.at.col - 1 }, rows, p.columns, p.pkField, p.kind), [p.text, p.at, rows, p.columns, p.pkField, p.kind]);
  // A clear or fill that cannot be made (a read-only column) is said in one line, as typing
  // into such a cell is, not in a dialog about a paste nobody made.
  // So is any paste, clear or fill by someone whose role or grant lets them change nothing here.
  const refusedInline = p.readOnlyWhy !== undefined || (!planned.ok && p.kind !== "paste");
  const { onClose, readOnlyWhy } = p;
  useEffect(() => {
    if (refusedInline) {
      toast(readOnlyWhy ?? (planned as { message: string }).message, { kind: "error" });
      onClose();
    }
  }, [refusedInline, readOnlyWhy, planned, onClose]);
  const closeRef = useRef<HTMLButtonElement>(null);
  const updates = useMemo(() => (planned.ok ? planUpdates(planned.plan.changes, p.pkField) : []), [planned, p.pkField]);
  const [busy, setBusy] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<PasteOutcome | null>(null);
  /** The cells left out because they cannot be written (the "skip the invalid" choice). */
  const [skipped, setSkipped] = useState<CellChange[]>([]);
  /** Undo of what was applied, offered in the result (review 54b #4: it had only Close, and Ctrl+Z did nothing there). */
  const [undo, setUndo] = useState<ToastAction | undefined>();

  const confirm = async (skipInvalid = false) => {
    if (skipInvalid && planned.ok) setSkipped(planned.plan.changes.filter((c) => c.error));
    setBusy(0);
    const out = await applyUpdates(p.db, p.table, p.pkField, updates, setBusy);
    setBusy(null);
    setOutcome(out);
    const changes = undoChanges(out.applied);
    if (changes.length) {
      undoActions.record({
        id: `${Date.now()}-paste`,
        label: `${words.undo} ${plural(changes.length, "value")} ${words.into} ${plural(out.applied.length, "Record")}`,
        db: p.db,
        table: p.table,
        pkField: p.pkField,
        at: Date.now(),
        changes,
        jsonFields: [...new Set(out.applied.flatMap((u) => u.changes.filter((c) => c.field.type === "json").map((c) => c.field.key)))],
      });
      setUndo(undoLast());
    }
    // Show the new values where the rows are, without re-sorting them away (as a cell edit does).
    const applied = new Map(out.applied.map((u) => [pkId(u.pk), u]));
    qc.setQueryData<QueryResult>(p.queryKey, (d) =>
      d && {
        ...d,
        items: d.items.map((r) => {
          const u = applied.get(pkId(r[p.pkField]));
          return u ? { ...r, ...Object.fromEntries(u.changes.map((c) => [c.field.key, c.after ?? null])) } : r;
        }),
      },
    );
    void qc.invalidateQueries({ queryKey: recordKeys.table(p.db, p.table), refetchType: "none" });
    if (out.conflicts.length) void qc.invalidateQueries({ queryKey: p.queryKey });
    if (!out.conflicts.length && !out.errors.length && !skipInvalid) toast(`${words.done} ${plural(changes.length, "value")} ${words.into} ${plural(out.applied.length, "Record")}`, { kind: "success", action: changes.length ? undoLast() : undefined });
  };
  // The result is read from its Close button: focus goes there (Enter closes, Escape too).
  useEffect(() => {
    if (outcome) closeRef.current?.focus();
  }, [outcome]);

  if (refusedInline) return null;

  const cells = planned.ok ? planned.plan.changes.length - planned.plan.invalid : 0;
  // The result closes, then the change is taken back (the grid's own undo, one step).
  const undoNow = () => {
    p.onClose();
    undo?.run();
  };
  return (
    <Dialog labelledBy="paste-title" className="paste-dialog" canClose={busy === null} onClose={p.onClose} fallbackFocus={activeGridCell}>
      <div
        onKeyDown={(e) => {
          e.stopPropagation();
          if (outcome && undo && (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "z") {
            e.preventDefault();
            undoNow();
          }
        }}
      >
        <header className="dialog-head">
          <h2 id="paste-title">{outcome ? words.result : words.title}</h2>
          <button type="button" className="btn-icon" aria-label="Close" onClick={p.onClose} disabled={busy !== null}>
            ×
          </button>
        </header>
        {!planned.ok ? (
          <p className="error-text" role="alert">
            {planned.message}
          </p>
        ) : outcome ? (
          <div role="status" data-testid="paste-outcome">
            <p>
              <strong>{plural(outcome.applied.length, "Record")}</strong> updated ({plural(undoChanges(outcome.applied).length, "value")}).
            </p>
            {outcome.conflicts.length > 0 && (
              <p className="warn-text">
                {plural(outcome.conflicts.length, "Record")} changed elsewhere since they were shown and were left as they are: {outcome.conflicts.map((u) => String(u.pk)).join(", ")}.
              </p>
            )}
            {skipped.length > 0 && (
              <>
                <p className="warn-text" data-testid="paste-skipped">
                  {plural(skipped.length, "cell")} skipped (not written, as chosen):
                </p>
                <ChangeTable changes={skipped} />
              </>
            )}
            {outcome.errors.map((e) => (
              <p key={pkId(e.update.pk)} className="error-text">
                {String(e.update.pk)}: {e.message}
              </p>
            ))}
          </div>
        ) : (
          <>
            <p data-testid="paste-summary">
              {plural(cells, "value")} to change in {plural(updates.length, "Record")}
              {planned.plan.unchanged ? `; ${plural(planned.plan.unchanged, "cell")} already ${planned.plan.unchanged === 1 ? "holds" : "hold"} ${words.same}` : ""}.
              {planned.plan.invalid > 0 && (
                <strong className="error-text"> {plural(planned.plan.invalid, "cell")} cannot be written (shown in red): fix the clipboard and paste again, or skip {planned.plan.invalid === 1 ? "it" : "them"} and apply the rest.</strong>
              )}
            </p>
            <ChangeTable changes={planned.plan.changes} />
          </>
        )}
        <footer className="dialog-foot">
          {busy !== null && (
            <span className="muted" role="status">
              Saving {busy} of {updates.length}…
            </span>
          )}
          <span className="spacer" />
          {outcome && undo && (
            <button type="button" className="btn" onClick={undoNow} title="Take back what was written (Ctrl+Z)">
              Undo
            </button>
          )}
          <button type="button" className="btn" ref={closeRef} onClick={p.onClose} disabled={busy !== null} data-autofocus={!planned.ok || updates.length === 0 ? "" : undefined}>
            {outcome || !planned.ok ? "Close" : "Cancel"}
          </button>
          {planned.ok && !outcome && planned.plan.invalid > 0 && (
            <button type="button" className="btn" data-autofocus="" onClick={() => void confirm(true)} disabled={busy !== null || updates.length === 0}>
              {`Skip ${plural(planned.plan.invalid, "invalid cell")}, update ${plural(updates.length, "Record")}`}
            </button>
          )}
          {planned.ok && !outcome && (
            <button
              type="button"
              className="btn btn-primary"
              data-autofocus={planned.plan.invalid > 0 ? undefined : ""}
              onClick={() => void confirm()}
              disabled={busy !== null || planned.plan.invalid > 0 || updates.length === 0}
              title={planned.plan.invalid > 0 ? "Some cells cannot be written: fix them, or skip them" : undefined}
            >
              {planned.plan.invalid > 0 ? "Apply all" : `Update ${plural(updates.length, "Record")}`}
            </button>
          )}
        </footer>
      </div>
    </Dialog>
  );
}
