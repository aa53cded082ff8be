/**
 * The blank row at the end of the page (issue 24): type straight into the grid, Tab between the
 * Fields (once something is typed: an empty row is one tab stop), Enter adds the Record (the insert extension, checked first with the same rules as the
 * Add Record form), Escape empties the row. Undoable like every add.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import type { FieldInfo } from "../../../shared/records";
import { ApiError } from "../../api-client";
import type { GridColumn } from "../grid/columns.utils";
import { SEL_W } from "../grid/GridRow";
import { insertRecords } from "../records-write-mutation";
import { invalidateTableRecords } from "../records-update-mutation";
import { recordAdded } from "./record-added";
import { buildRecord, isRequired, spreadPaste } from "./new-record.utils";
import { parseTsv } from "../clipboard/tsv.utils";
import { raiseToastsAbove } from "../../ui/toast";
import "./add-record.css";

interface Props {
  db: string;
  table: string;
  columns: readonly GridColumn[];
  fields: readonly FieldInfo[];
  ariaRowIndex: number;
  /** Why this person may not delete Records here, when they may not (an add then has no undo). */
  noDelete?: string;
}

export function NewRow({ db, table, columns, fields, ariaRowIndex, noDelete }: Props) {
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const problemId = useId();
  // Where the focus goes once the row's inputs are enabled again (they are disabled while the
  // insert runs, and a disabled input cannot take the focus: it fell to the page).
  const focusAfter = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (busy || focusAfter.current === undefined) return;
    const key = focusAfter.current;
    focusAfter.current = undefined;
    const inputs = ref.current;
    (inputs?.querySelector<HTMLInputElement>(`[data-new-col="${CSS.escape(key)}"]`) ?? inputs?.querySelector<HTMLInputElement>("input"))?.focus();
  }, [busy]);
  const qc = useQueryClient();
  const pk = fields.find((f) => f.primaryKey)?.key ?? "";
  const width = SEL_W + columns.reduce((n, c) => n + c.width, 0);
  const firstProblem = Object.entries(problems)[0];
  const shownProblem = error ?? firstProblem?.[1];
  const problemRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const el = problemRef.current;
    if (!shownProblem || !el) return;
    el.scrollIntoView({ block: "nearest" });
    // Toasts rise above the row and its message while it is shown (review 54b #3: the toast of
    // the Record just added covered the reason the next one was refused; 55b #6: raised above the
    // message alone, it covered the row being typed in).
    return raiseToastsAbove(ref.current ?? el);
  }, [shownProblem]);
  // Tab walks the row's Fields once a Record is being typed; before that only the first one is a
  // tab stop, so a keyboard passing through the page is not walked through every Field.
  const typing = Object.values(texts).some((t) => t !== "");
  const firstOwn = columns.findIndex((c) => !c.joined && fields.some((f) => f.key === c.key));
  /** The Fields the row has cells for, in the order shown (where a pasted block goes). */
  const ownKeys = columns.filter((c) => !c.joined && fields.some((f) => f.key === c.key)).map((c) => c.key);

  const commit = async () => {
    setError(null);
    const typingIn = (document.activeElement as HTMLElement | null)?.dataset?.newCol ?? "";
    // Fields not shown as columns are left out (null), as in the form when left empty.
    const built = buildRecord(fields, texts);
    if (!built.ok) {
      setProblems(built.problems);
      const key = Object.keys(built.problems)[0];
      ref.current?.querySelector<HTMLInputElement>(`[data-new-col="${CSS.escape(key)}"]`)?.focus();
      return;
    }
    setProblems({});
    setBusy(true);
    try {
      await insertRecords(db, table, [built.record]);
      recordAdded({ db, table, pkField: pk, record: built.record, noDelete });
      setTexts({});
      // The next Record starts in the first cell.
      focusAfter.current = "";
      await invalidateTableRecords(qc, db, table);
    } catch (e) {
      // A key already taken is the key cell's problem (marked invalid there); anything else the row's.
      if (e instanceof ApiError && e.status === 409 && pk) setProblems({ [pk]: e.message });
      else setError((e as Error).message);
      // Back where the person was typing, to fix it (a key already taken: the key's cell).
      focusAfter.current = e instanceof ApiError && e.status === 409 ? pk : typingIn;
    } finally {
      setBusy(false);
    }
  };

  return (
    <div role="rowgroup" className="new-row-group">
      <div
        ref={ref}
        role="row"
        aria-rowindex={ariaRowIndex}
        aria-label="New Record: type, then Enter to add"
        className="grid-row new-row"
        style={{ width }}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
            e.preventDefault();
            if (!busy) void commit();
          } else if (e.key === "Escape") {
            setTexts({});
            setProblems({});
            setError(null);
          }
        }}
      >
        <div role="gridcell" aria-colindex={1} className="cell sel new-row-mark" title="New Record: type into the cells, Enter adds it">
          +
        </div>
        {columns.map((col, i) => {
          const own = !col.joined && fields.some((f) => f.key === col.key);
          const problem = problems[col.key];
          return (
            <div key={col.key} role="gridcell" aria-colindex={i + 2} className={`cell t-${col.field.type} new-cell ${problem ? "invalid" : ""}${col.field.primaryKey && !col.joined ? " frozen" : ""}`} style={{ width: col.width }}>
              {own && (
                <input
                  className="new-input"
                  data-new-col={col.key}
                  aria-label={`New Record: ${col.key}${isRequired(col.field) ? " (required)" : ""}`}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem && firstProblem?.[0] === col.key ? problemId : undefined}
                  placeholder={i === 0 ? "New Record…" : undefined}
                  value={texts[col.key] ?? ""}
                  tabIndex={typing || i === firstOwn ? 0 : -1}
                  disabled={busy}
                  onChange={(e) => setTexts((t) => ({ ...t, [col.key]: e.target.value }))}
                  onPaste={(e) => {
                    const spread = spreadPaste(parseTsv(e.clipboardData.getData("text/plain")), ownKeys, col.key);
                    if (!spread) return;
                    e.preventDefault();
                    setTexts((t) => ({ ...t, ...spread.texts }));
                    setProblems({});
                    setError(
                      spread.more
                        ? `Only the first of the ${spread.more + 1} pasted lines is in the row: Enter adds it, then paste the next line (or bring them all in at once with Import…).`
                        : null,
                    );
                  }}
                />
              )}
            </div>
          );
        })}
      </div>
      {(firstProblem || error) && (
        // A row of its own (a grid holds only rows), one cell across; brought into view when it
        // appears (review 53b #1: below the grid's visible part, it went unseen).
        // As wide as the row, so that the message can stay at the grid's left edge however far
        // the grid is scrolled sideways (in a box of the view's width it scrolled out of sight).
        <div role="row" className="new-row-problem-row" style={{ width }}>
          <div role="gridcell" aria-colindex={1} aria-colspan={columns.length + 1}>
            <p id={problemId} className="error-text new-row-problem" role="alert" ref={problemRef}>
              {shownProblem}
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
