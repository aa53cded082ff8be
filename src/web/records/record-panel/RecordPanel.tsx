/**
 * The record panel: every Field of one Record (joined ones read-only) beside the grid, in the
 * URL as `?record=<primary key>`. Saving sends every changed Field in one update, checked as the
 * grid's own cell edit is (primary key AND each old value in the filter), so a change made
 * elsewhere is a conflict, never overwritten. Alt+↑/↓ (or the arrows in its head) move to the previous/next Record.
 * Its History tab shows the Record's versions from the audit trail (src/web/team/audit).
 */
import { onSessionEnding } from "../../team/session-ended";
import { keepForSignIn, takeAfterSignIn } from "./panel-unsaved";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import type { JoinUnit, RecordRow, RecordValue } from "../../../shared/records";
import { Dialog } from "../../ui/Dialog";
import type { GridColumn } from "../grid/columns.utils";
import { conflictKey, gridActions, useGridStore } from "../grid/grid-store";
import type { FieldEdit } from "../grid/edit.utils";
import { formatValue, parseInput, sameValue } from "../values/values.utils";
import { panelText } from "./field-editor.utils";
import { FieldEditor } from "./FieldEditor";
import { pkFromText, recordGetQueryOptions } from "./record-get-query";
import "./record-panel.css";
import { toast } from "../../ui/toast";
import { deleteRequest } from "../delete/delete-request-store";
import { RecordHistory } from "../../team/audit/RecordHistory";
import { liveActions, rowKey, useLiveStore } from "../../team/live/live-store";
import { formatWhen } from "../../team/audit/format-when";

interface Props {
  db: string;
  table: string;
  recordText: string;
  rows: readonly RecordRow[];
  columns: readonly GridColumn[];
  pkField: string;
  join: JoinUnit | undefined;
  /** Why this Record cannot be deleted here; undefined when it can. */
  deleteWhy?: string;
  /** Why this Record's Fields cannot be changed here (a viewer); undefined when they can. */
  changeWhy?: string;
  /** Every changed Field of the Record, as one update: each with the value its edit began from. */
  onSave(pk: RecordValue, edits: FieldEdit<GridColumn>[]): void;
  onNavigate(record: string | undefined): void;
  /** Past the page's last (first) row: the next (previous) page, when there is one. */
  pageStep?: { next: boolean; prev: boolean; go(delta: -1 | 1): void };
}

type Drafts = Record<string, string | null>;

export default function RecordPanel(p: Props) {
  const pkCol = p.columns.find((c) => c.key === p.pkField);
  const index = p.rows.findIndex((r) => String(r[p.pkField]) === p.recordText);
  const onPage = index >= 0 ? p.rows[index] : undefined;
  const pk = pkFromText(p.recordText, pkCol?.field.type);
  // The page holds only the view's columns (`cols`): the panel shows every Field, so a Record
  // whose row lacks some is read whole; the page's values win for the Fields it has (the grid
  // shows those, live changes included).
  const whole = onPage !== undefined && p.columns.every((c) => c.key in onPage);
  const fetched = useQuery({ ...recordGetQueryOptions(p.db, p.table, p.pkField, pk, p.join), enabled: !whole });
  const fetchedRow = fetched.data;
  const row = useMemo(() => (whole ? onPage : fetchedRow ? { ...fetchedRow, ...onPage } : undefined), [whole, onPage, fetchedRow]);
  const [drafts, setDrafts] = useState<Drafts>({});
  // Each edited Field's value when its edit began: saving checks against it, so a live change
  // arriving while the person types is a conflict that names who, never silently overwritten.
  const [bases, setBases] = useState<Record<string, RecordValue>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [large, setLarge] = useState<GridColumn | null>(null);
  const conflicts = useGridStore((s) => s.conflicts);
  const headRef = useRef<HTMLHeadingElement>(null);
  const [tab, setTab] = useState<"fields" | "history">("fields");
  // Someone else changed this Record while it is open (live): say who, until dismissed.
  const liveKey = rowKey(`${p.db}/${p.table}`, p.recordText);
  const changedUnder = useLiveStore((s) => s.changedUnder.get(liveKey));

  // Unsaved edits of each Record left for another without the panel's own controls (a row's
  // open button, the browser's Back): kept for this panel's life, and back when it returns.
  const stash = useRef(new Map<string, { drafts: Drafts; bases: Record<string, RecordValue> }>());
  const latest = useRef({ drafts, bases });
  const changeWhyNow = useRef(p.changeWhy);
  changeWhyNow.current = p.changeWhy;
  latest.current = { drafts, bases };
  // Fields whose save this panel sent: a conflict on one puts the typed value back in it.
  const sent = useRef(new Set<string>());
  const [leaving, setLeaving] = useState<{ what: string; run(): void } | null>(null);

  // Another Record: start clean (or with what was typed there before), and put focus where a
  // keyboard user expects it.
  useEffect(() => {
    const stashed = stash.current;
    // What was typed here when the session ended (kept through the sign-in), else what was
    // typed before leaving for another Record.
    const kept = takeAfterSignIn(p.db, p.table, p.recordText, !!changeWhyNow.current) ?? stashed.get(p.recordText);
    stashed.delete(p.recordText);
    setDrafts(kept?.drafts ?? {});
    setBases(kept?.bases ?? {});
    setErrors({});
    setLeaving(null);
    sent.current = new Set();
    headRef.current?.focus();
    liveActions.clearChangedUnder(liveKey);
    const left = p.recordText;
    return () => {
      if (Object.keys(latest.current.drafts).length) stashed.set(left, latest.current);
    };
  }, [p.recordText, liveKey, p.db, p.table]);

  // The session ends (an admin changed a grant): the notice promises what was typed is kept.
  // The grid's cells were; the panel's were lost (review 28b #4).
  useEffect(() => onSessionEnding(() => keepForSignIn(p.db, p.table, p.recordText, latest.current)), [p.db, p.table, p.recordText]);

  const dirty = Object.keys(drafts).length > 0;
  // Leaving with unsaved edits (Esc, ×, previous/next) asks first: they were lost silently.
  const leave = (what: string, run: () => void) => (dirty ? setLeaving({ what, run }) : run());
  // Not leaving after all: back to the first edited Field (the question's buttons go, and the
  // focus with them would fall to the page).
  const stay = () => {
    setLeaving(null);
    const first = Object.keys(drafts)[0];
    requestAnimationFrame(() => (document.getElementById(`rp-${(first ?? "").replace(/[^A-Za-z0-9_-]/g, "_")}`) ?? headRef.current)?.focus());
  };
  const close = () => leave("close the panel", () => p.onNavigate(undefined));
  const go = (delta: -1 | 1) =>
    leave(delta < 0 ? "go to the previous Record" : "go to the next Record", () => {
      const next = p.rows[index + delta];
      if (next) p.onNavigate(String(next[p.pkField]));
      else if (index >= 0 && p.pageStep && (delta > 0 ? p.pageStep.next : p.pageStep.prev)) p.pageStep.go(delta);
    });

  // A save of this panel refused as a conflict, or that failed (the server could not be reached):
  // the typed value goes back into its Field, so that Save again overwrites it, or retries (it
  // was left only in the toast; a failure lost it outright: review 39b #1). A conflict's base is
  // the value now stored; a failure's, the value it was sent against.
  const saveRef = useRef<HTMLButtonElement>(null);
  /** The Field a save left the focus on (below): a failure takes it back to Save. */
  const focusedAfterSave = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!row || !sent.current.size) return;
    let back = false;
    for (const key of [...sent.current]) {
      const c = conflicts.get(conflictKey(row[p.pkField], key));
      const col = p.columns.find((x) => x.key === key);
      if (!c || !col) continue;
      sent.current.delete(key);
      back = true;
      setDrafts((d) => (key in d ? d : { ...d, [key]: c.attempted === null ? null : panelText(col.field, c.attempted) }));
      setBases((b) => ({ ...b, [key]: c.current === undefined ? row[key] : c.current }));
    }
    // Save was disabled once the edits went: the focus fell to the page, or went to the Field the
    // save left it on. Back on Save, to save again.
    const resting = document.activeElement === document.body || document.activeElement === null || document.activeElement === focusedAfterSave.current;
    if (back && resting) requestAnimationFrame(() => saveRef.current?.focus());
  }, [conflicts, row, p.pkField, p.columns]);

  const baseOf = (key: string): RecordValue => (key in bases ? bases[key] : (row?.[key] ?? null));
  const edit = (key: string, text: string | null) => {
    setDrafts((d) => ({ ...d, [key]: text }));
    if (row && !(key in bases)) setBases((b) => (key in b ? b : { ...b, [key]: row[key] }));
  };
  // Edited Fields whose stored value moved since the edit began (a refetch or a live change).
  const movedUnder = row ? p.columns.filter((c) => c.key in bases && c.key in drafts && !sameValue(row[c.key], bases[c.key])) : [];
  /** Saves the edits; false when one cannot be (its Field says why). */
  const save = (): boolean => {
    if (!row) return false;
    if (p.changeWhy) {
      // Text kept from before the role changed: said why it cannot be saved, not "Save again".
      toast(p.changeWhy);
      return false;
    }
    const bad: Record<string, string> = {};
    const out: { col: GridColumn; value: RecordValue }[] = [];
    for (const [key, text] of Object.entries(drafts)) {
      const col = p.columns.find((c) => c.key === key);
      if (!col) continue;
      const v = text === null ? { ok: true as const, value: null } : parseInput(col.field, text);
      if (!v.ok) bad[key] = v.error.message;
      else if (!sameValue(baseOf(key), v.value)) out.push({ col, value: v.value });
    }
    setErrors(bad);
    if (Object.keys(bad).length) {
      // The first Field that cannot be saved, with its message, into view (it was below the
      // panel's visible part: the Field turned red and the reason could not be seen).
      const first = p.columns.find((c) => bad[c.key]);
      requestAnimationFrame(() => {
        const field = first && document.getElementById(`rp-${first.key.replace(/[^A-Za-z0-9_-]/g, "_")}`)?.closest(".rp-field");
        field?.scrollIntoView({ block: "nearest" });
      });
      return false;
    }
    for (const { col } of out) {
      sent.current.add(col.key);
      // A retry supersedes the failure or conflict it answers: left in place, it was read as this
      // save's outcome, put the value back with the old base, and the saved value then showed as
      // "changed elsewhere" and the next edit conflicted with its own author (review 46b #1).
      gridActions.setConflict(conflictKey(row[p.pkField], col.key), null);
    }
    // One update for the whole Save: one version in the Record's history (review 47b #4: a
    // version per Field offered in-between states that never existed to restore).
    if (out.length) {
      p.onSave(row[p.pkField], out.map(({ col, value }) => ({ col, oldValue: baseOf(col.key), newValue: value })));
      // This tab writes the Record last: a notice of someone else's change no longer says what it holds.
      liveActions.clearChangedUnder(liveKey);
    }
    setDrafts({});
    setBases({});
    latest.current = { drafts: {}, bases: {} };
    // Save and Discard go grey: the focus stays in the panel, on the first Field saved, rather
    // than falling to the page (review 46b #4).
    const first = out[0]?.col.key;
    if (first && (document.activeElement === saveRef.current || document.activeElement === document.body)) {
      requestAnimationFrame(() => {
        // Not when a failure has put the focus on Save meanwhile.
        if (document.activeElement === saveRef.current && !saveRef.current?.disabled) return;
        focusedAfterSave.current = document.getElementById(`rp-${first.replace(/[^A-Za-z0-9_-]/g, "_")}`);
        focusedAfterSave.current?.focus();
      });
    }
    return true;
  };
  const discard = () => {
    setDrafts({});
    setBases({});
    setErrors({});
    // Not kept for a return either, should the Record change before this renders again.
    latest.current = { drafts: {}, bases: {} };
  };

  const fields = useMemo(() => {
    // The primary key first, then the table's own Fields, then the joined ones.
    const own = p.columns.filter((c) => !c.joined);
    return [...own.filter((c) => c.field.primaryKey), ...own.filter((c) => !c.field.primaryKey), ...p.columns.filter((c) => c.joined)];
  }, [p.columns]);

  return (
    <aside
      className="record-panel"
      aria-labelledby="rp-title"
      onKeyDown={(e) => {
        // Ctrl/⌘+Z and +Y go on to the app's undo (UndoButtons), as everywhere in Records: right
        // after Restore this version the focus is here (review 38b #2). Keys typed into a Field
        // are the Field's own undo; UndoButtons leaves those alone.
        if ((e.ctrlKey || e.metaKey) && /^[zy]$/i.test(e.key)) return;
        e.stopPropagation();
        if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
          e.preventDefault();
          go(e.key === "ArrowUp" ? -1 : 1);
        } else if (e.key === "Escape" && !large) {
          e.preventDefault();
          if (leaving) stay();
          else close();
        } else if ((e.ctrlKey || e.metaKey) && e.key === "s") {
          e.preventDefault();
          save();
        } else if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
          e.preventDefault();
          save();
        }
      }}
    >
      <header className="rp-head">
        <h2 id="rp-title" tabIndex={-1} ref={headRef}>
          <span className="muted">Record</span> {p.recordText}
        </h2>
        <span className="spacer" />
        <button type="button" className="btn-icon" aria-label="Previous Record" title="Previous Record (Alt+↑)" disabled={index < 0 || (index === 0 && !p.pageStep?.prev)} onClick={() => go(-1)}>
          ↑
        </button>
        <button type="button" className="btn-icon" aria-label="Next Record" title="Next Record (Alt+↓)" disabled={index < 0 || (index >= p.rows.length - 1 && !p.pageStep?.next)} onClick={() => go(1)}>
          ↓
        </button>
        <button type="button" className="btn-icon" aria-label="Close the Record panel" title="Close (Esc)" onClick={close}>
          ×
        </button>
      </header>
      {leaving && (
        <LeaveGuard
          what={leaving.what}
          fields={Object.keys(drafts)}
          onSave={() => {
            if (!save()) return stay();
            setLeaving(null);
            leaving.run();
          }}
          onDiscard={() => {
            discard();
            setLeaving(null);
            leaving.run();
          }}
          onKeep={stay}
        />
      )}
      {changedUnder && (
        <p className="rp-live-notice" role="status">
          <span>
            {changedUnder.deleted ? "Deleted" : changedUnder.back ? "Brought back" : "Changed"} by {changedUnder.name} ({changedUnder.email}) at {formatWhen(changedUnder.at)}
            {changedUnder.back
              ? " (it had been deleted); its values are shown."
              : changedUnder.deleted
              ? dirty
                ? ": what you typed was not saved; it is listed below, to copy."
                : "."
              : dirty
                ? ": your unsaved edits are kept; saving any Field changed under you is refused as a conflict."
                : "; the new values are shown."}
          </span>
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => liveActions.clearChangedUnder(liveKey)}>
            Dismiss
          </button>
        </p>
      )}
      {!changedUnder && movedUnder.length > 0 && row && (
        <p className="rp-live-notice" role="status">
          <span>
            Changed elsewhere while you were editing: {movedUnder.map((c) => `${c.key} is now ${formatValue(c.field.type, row[c.key])}`).join(", ")}. Your unsaved edits are kept; saving any Field changed under you is refused as a conflict.
          </span>
        </p>
      )}
      <div className="rp-tabs" role="tablist" aria-label="Record panel">
        {(["fields", "history"] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`rp-tab-${t}`}
            className="rp-tab"
            aria-selected={tab === t}
            // Where the focus goes back to from a toast's action (focus-fallback.ts).
            data-focus-home={tab === t ? "" : undefined}
            aria-controls="rp-tabpanel"
            tabIndex={tab === t ? 0 : -1}
            onClick={() => setTab(t)}
            onKeyDown={(e) => {
              if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
                e.preventDefault();
                const other = t === "fields" ? "history" : "fields";
                setTab(other);
                document.getElementById(`rp-tab-${other}`)?.focus();
              }
            }}
          >
            {t === "fields" ? "Fields" : "History"}
          </button>
        ))}
      </div>
      {/* Focusable for a viewer: it scrolls, and nothing inside it takes the focus then. */}
      <div className="rp-body" role="tabpanel" id="rp-tabpanel" aria-labelledby={`rp-tab-${tab}`} tabIndex={p.changeWhy ? 0 : undefined}>
        {tab === "history" ? (
          <RecordHistory db={p.db} table={p.table} pkField={p.pkField} recordText={p.recordText} row={row} columns={p.columns} />
        ) : !row ? (
          <>
            <p className="muted" role="status">
              {fetched.isPending ? "Loading the Record…" : fetched.isError ? `Could not load it: ${fetched.error.message}` : `No Record ${p.recordText} in this table.`}
            </p>
            {!fetched.isPending && Object.keys(drafts).length > 0 && (
              // The Record went (deleted by someone else) with edits typed here: they are shown, not dropped.
              <div className="rp-unsaved-gone">
                <p>What you typed, not saved:</p>
                <dl>
                  {Object.entries(drafts).map(([key, text]) => (
                    <div key={key}>
                      <dt>{key}</dt>
                      <dd>{text === null ? "NULL" : text}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            )}
          </>
        ) : (
          fields.map((col) => {
            const value = row[col.key];
            const draft = drafts[col.key];
            const c = conflicts.get(conflictKey(row[p.pkField], col.key));
            return (
              <FieldEditor
                key={col.key}
                col={col}
                value={value}
                draft={draft}
                text={draft === undefined ? panelText(col.field, value) : (draft ?? "")}
                error={errors[col.key]}
                conflict={
                  !c
                    ? undefined
                    : c.failed !== undefined
                      ? // Not a conflict: nobody changed it (review 39b #1 said "Changed elsewhere").
                        `Not saved: ${c.failed}${draft !== undefined && !p.changeWhy ? " Your value is kept here: Save again to retry." : ""}`
                      : `Changed elsewhere${c.by ?? ""}: it is now ${c.current === undefined ? "unknown" : formatValue(col.field.type, c.current)}; your value was not saved${draft !== undefined ? " (it is kept here: Save again to overwrite)" : ""}.`
                }
                onChange={(text) => edit(col.key, text)}
                onLarge={() => setLarge(col)}
              />
            );
          })
        )}
      </div>
      {dirty && p.changeWhy && (
        // Typed before the role changed (kept through signing in again): review 46b #7 offered
        // Save, then "Save again to retry", which could never work.
        <p className="rp-readonly-note" role="status">
          Not saved: {p.changeWhy} What you typed is kept in its Field to copy; Discard clears it.
        </p>
      )}
      <footer className="rp-foot">
        <button
          type="button"
          className="btn btn-danger-quiet"
          disabled={!row}
          aria-disabled={p.deleteWhy ? true : undefined}
          title={p.deleteWhy ?? "Delete this Record (it can be undone)"}
          onClick={() => (p.deleteWhy ? toast(p.deleteWhy) : row && deleteRequest.one(row[p.pkField]))}
        >
          Delete…
        </button>
        <span className="muted small">{index >= 0 ? `${index + 1} of ${p.rows.length} on this page` : "Not on this page"}</span>
        <span className="spacer" />
        <button type="button" className="btn" disabled={!dirty} onClick={discard}>
          Discard
        </button>
        <button
          ref={saveRef}
          type="button"
          className="btn btn-primary"
          disabled={!dirty || !row}
          aria-disabled={p.changeWhy ? true : undefined}
          onClick={save}
          title={p.changeWhy ?? "Save (Ctrl/⌘+Enter)"}
        >
          Save
        </button>
      </footer>
      {large && (
        <LargeEditor
          col={large}
          text={drafts[large.key] ?? (drafts[large.key] === null ? "" : panelText(large.field, row?.[large.key]))}
          onDone={(text) => {
            if (text !== undefined) edit(large.key, text);
            setLarge(null);
          }}
        />
      )}
    </aside>
  );
}

/** Asked before unsaved edits would be left: save them, discard them, or keep editing (the default). */
function LeaveGuard({ what, fields, onSave, onDiscard, onKeep }: { what: string; fields: string[]; onSave(): void; onDiscard(): void; onKeep(): void }) {
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => keepRef.current?.focus(), []);
  return (
    <div className="rp-leave" role="alertdialog" aria-labelledby="rp-leave-text">
      <p id="rp-leave-text">
        Unsaved {fields.length === 1 ? "change" : "changes"} to {fields.join(", ")}. Save before you {what}?
      </p>
      <div className="rp-leave-actions">
        <button type="button" className="btn btn-primary btn-sm" onClick={onSave}>
          Save
        </button>
        <button type="button" className="btn btn-sm" onClick={onDiscard}>
          Discard
        </button>
        <button type="button" className="btn btn-sm" ref={keepRef} onClick={onKeep}>
          Keep editing
        </button>
      </div>
    </div>
  );
}

function LargeEditor({ col, text, onDone }: { col: GridColumn; text: string; onDone(text?: string): void }) {
  const [value, setValue] = useState(text);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog labelledBy="large-title" className="large-editor" onClose={() => onDone()}>
      <div onKeyDown={(e) => e.stopPropagation()}>
        <header className="dialog-head">
          <h2 id="large-title">
            {col.key} <span className="muted small">{col.field.type}</span>
          </h2>
        </header>
        <textarea
          className={`input ${col.field.type === "json" ? "mono" : ""}`}
          aria-label={`${col.key} (large editor)`}
          value={value}
          autoFocus
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
        />
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <footer className="dialog-foot">
          {col.field.type === "json" && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                try {
                  setValue(JSON.stringify(JSON.parse(value), null, 2));
                } catch (e) {
                  setError(`Not valid JSON: ${(e as Error).message}`);
                }
              }}
            >
              Format JSON
            </button>
          )}
          <span className="spacer" />
          <button type="button" className="btn" onClick={() => onDone()}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={() => onDone(value)}>
            Keep
          </button>
        </footer>
      </div>
    </Dialog>
  );
}
