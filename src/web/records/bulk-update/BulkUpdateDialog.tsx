/**
 * Bulk update: set one or more fields on the selected Records or on every Record matching the
 * filter. The review reads the matching Records (the confirmed set); the update carries that set
 * (bulk-apply.ts), so Records that start matching in between are not changed, and the undo covers
 * exactly what changed.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { FilterGroup } from "../../../shared/filter";
import type { FieldInfo, RecordValue } from "../../../shared/records";
import { toastError } from "../../app/query-client";
import { Dialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { pkFilter } from "../grid/edit.utils";
import { formatValue } from "../values/values.utils";
import { invalidateTableRecords } from "../records-update-mutation";
import { undoActions } from "../undo/undo-store";
import { QUERY_LIMIT_MAX } from "../../../shared/records";
import { type BulkRow, readBulkValues } from "./bulk.utils";
import { applyConfirmed, type Confirmed, readConfirmed } from "./bulk-apply";
import { BulkValueInput } from "./BulkValueInput";
import { undoLast } from "../undo/use-undo";
import { fmtInt } from "../values/values.utils";

export type BulkTarget = { kind: "rows"; pks: RecordValue[] } | { kind: "filter"; filter: FilterGroup | undefined };

interface Props {
  db: string;
  table: string;
  pkField: string;
  fields: FieldInfo[];
  target: BulkTarget;
  onClose(): void;
  onDone(): void;
}

const fmt = fmtInt;
const activeGridCell = () => document.querySelector<HTMLElement>("[role=grid] .cell.active");

export function BulkUpdateDialog({ db, table, pkField, fields, target, onClose, onDone }: Props) {
  const qc = useQueryClient();
  const blank = (key: string): BulkRow => ({ field: key, text: fields.find((f) => f.key === key)?.type === "boolean" ? "true" : "", isNull: false });
  const [rows, setRows] = useState<BulkRow[]>([blank(fields[0]?.key ?? "")]);
  const [error, setError] = useState<string | null>(null);
  const [review, setReview] = useState<{ count: number; values: { key: string; value: RecordValue }[]; confirmed: Confirmed; moved?: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const filter: FilterGroup = target.kind === "rows" ? pkFilter(pkField, target.pks) : (target.filter ?? { and: [] });

  useEffect(() => {
    ref.current?.querySelector<HTMLElement>(".bulk-rows select")?.focus();
  }, []);

  const backRef = useRef<HTMLButtonElement>(null);
  const reviewing = review !== null;
  useEffect(() => {
    if (reviewing) backRef.current?.focus();
  }, [reviewing]);
  // The focus follows the action (review 53b #8): to a new Field, to the row before a removed
  // one, to the value a Review refused.
  const rowsRef = useRef<HTMLDivElement>(null);
  const focusLater = (label: string) => requestAnimationFrame(() => rowsRef.current?.querySelector<HTMLElement>(`[aria-label="${label}"]`)?.focus());
  const toReview = async () => {
    const values = readBulkValues(rows, fields);
    if (!values.ok) {
      const bad = rows.findIndex((r) => values.error.message.startsWith(`${r.field} `));
      if (bad >= 0) focusLater(`Value ${bad + 1}`);
      return setError(values.error.message);
    }
    setBusy(true);
    try {
      // The Records matching now are the ones the user confirms; the update touches no others.
      const confirmed = await readConfirmed(db, table, filter, pkField, values.value);
      setError(null);
      setReview({ count: confirmed.count, values: values.value, confirmed });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    if (!review) return;
    setBusy(true);
    try {
      const keys = review.values.map((v) => v.key);
      const out = await applyConfirmed(db, table, filter, pkField, review.values, review.confirmed);
      if (!out.ok) {
        setReview({ ...review, count: out.count, confirmed: { count: out.count, snapshot: null }, moved: review.count });
        setBusy(false);
        return;
      }
      if (out.changes) {
        undoActions.record({
          id: `${Date.now()}-bulk`,
          label: `Bulk set ${keys.join(", ")} on ${fmt(out.matched)} Record${out.matched === 1 ? "" : "s"}`,
          db,
          table,
          pkField,
          at: Date.now(),
          changes: out.changes,
          jsonFields: fields.filter((f) => f.type === "json" && keys.includes(f.key)).map((f) => f.key),
        });
      }
      const n = out.matched;
      toast(`Updated ${fmt(n)} Record${n === 1 ? "" : "s"}`, {
        kind: "success",
        action: out.changes?.length ? undoLast() : undefined,
        detail: out.changes
          ? n < review.count
            ? `${fmt(review.count - n)} of the ${fmt(review.count)} confirmed no longer matched and were left alone.`
            : undefined
          : `More than ${fmt(QUERY_LIMIT_MAX)} Records: this update cannot be undone.`,
      });
      await invalidateTableRecords(qc, db, table);
      onDone();
    } catch (e) {
      toastError(e, "Bulk update failed; nothing was changed");
      setBusy(false);
    }
  };

  const describe = (v: { key: string; value: RecordValue }) => {
    const f = fields.find((x) => x.key === v.key);
    // Text is quoted, so a stray space or an empty string is visible before it is written.
    const text = typeof v.value === "string" && (!f || ["text", "image", "attachment"].includes(f.type));
    return `${v.key} = ${v.value === null ? "NULL" : text || !f ? JSON.stringify(v.value) : formatValue(f.type, v.value)}`;
  };

  return (
    <Dialog labelledBy="bulk-title" className="bulk" canClose={!busy} onClose={onClose} fallbackFocus={activeGridCell}>
      {/* Keys typed here are not the grid's or the app's shortcuts. */}
      <div
        ref={ref}
        onKeyDown={(e) => {
          e.stopPropagation();
          // Enter in a value box, or Ctrl/⌘+Enter anywhere, goes on to Review, as the filter
          // builder and Add Record take it (review 39b #6: it did nothing).
          const t = e.target as HTMLElement;
          if (!review && !busy && e.key === "Enter" && (e.ctrlKey || e.metaKey || (t.tagName === "INPUT" && (t as HTMLInputElement).type !== "checkbox"))) {
            e.preventDefault();
            void toReview();
          }
        }}
      >
        <header className="dialog-head">
          <h2 id="bulk-title">
            {target.kind === "rows" ? `Update ${fmt(target.pks.length)} selected Record${target.pks.length === 1 ? "" : "s"}` : "Update every Record matching the filter"}
          </h2>
          <button type="button" className="btn-icon" aria-label="Close" onClick={onClose} disabled={busy}>
            ×
          </button>
        </header>
        {!review ? (
          <>
            <div className="bulk-rows" ref={rowsRef}>
              {rows.map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond position
                <div className="bulk-row" key={i}>
                  <select
                    className="input"
                    aria-label={`Field ${i + 1}`}
                    value={r.field}
                    onChange={(e) => setRows(rows.map((x, j) => (j === i ? blank(e.target.value) : x)))}
                  >
                    {fields.map((f) => (
                      <option key={f.key} value={f.key}>
                        {f.key} ({f.type})
                      </option>
                    ))}
                  </select>
                  <span className="muted">=</span>
                  <BulkValueInput
                    field={fields.find((f) => f.key === r.field)}
                    row={r}
                    label={`Value ${i + 1}`}
                    onChange={(patch) => setRows(rows.map((x, j) => (j === i ? { ...x, ...patch } : x)))}
                  />
                  <button type="button" className="btn-icon danger" aria-label={`Remove field ${i + 1}`} disabled={rows.length === 1} onClick={() => {
                      setRows(rows.filter((_, j) => j !== i));
                      focusLater(`Field ${Math.max(1, i)}`);
                    }}>
                    ×
                  </button>
                </div>
              ))}
            </div>
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => {
                setRows([...rows, blank(fields.find((f) => !rows.some((r) => r.field === f.key))?.key ?? fields[0].key)]);
                focusLater(`Field ${rows.length + 1}`);
              }}
            >
              + Another field
            </button>
            {error && (
              <p className="error-text" role="alert">
                {error}
              </p>
            )}
            <footer className="dialog-foot">
              <button type="button" className="btn" onClick={onClose}>
                Cancel
              </button>
              <button type="button" className="btn btn-primary" onClick={toReview} disabled={busy} title="Review (Enter, or Ctrl/⌘+Enter)">
                {busy ? "Counting…" : "Review"}
              </button>
            </footer>
          </>
        ) : (
          <>
            <p className="confirm-text" data-testid="bulk-confirm">
              This will change <strong>{fmt(review.count)}</strong> Record{review.count === 1 ? "" : "s"}
              {target.kind === "filter" && !target.filter ? " (every Record in the table)" : ""}, setting {review.values.map(describe).join(", ")}.
            </p>
            {review.moved !== undefined && (
              <p className="warn-text" role="alert">
                The count changed from {fmt(review.moved)} to {fmt(review.count)} since you reviewed it; nothing was changed. Confirm the new count or go back.
              </p>
            )}
            {review.count > QUERY_LIMIT_MAX && <p className="warn-text">More than {fmt(QUERY_LIMIT_MAX)} Records: this update cannot be undone.</p>}
            <footer className="dialog-foot">
              {/* The focus comes here (the Review button under it went away, and it fell to the page): Back, not the update. */}
              <button type="button" className="btn" onClick={() => setReview(null)} disabled={busy} ref={backRef}>
                Back
              </button>
              <button type="button" className="btn btn-danger" onClick={confirm} disabled={busy || review.count === 0}>
                {busy ? "Updating…" : `Update ${fmt(review.count)} Record${review.count === 1 ? "" : "s"}`}
              </button>
            </footer>
          </>
        )}
      </div>
    </Dialog>
  );
}
