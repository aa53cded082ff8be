/**
 * "Add Record" on the toolbar and Ctrl/⌘+Shift+Enter (issue 24 item 1): a form with the primary
 * key first and required Fields marked; the Record is checked before it is sent, inserted with
 * the insert extension, and undoable (undo deletes it again if it is unchanged in count).
 * Against an upstream without insert the button stays, disabled for clicks, with a tooltip.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { ApiError } from "../../api-client";
import type { FieldInfo } from "../../../shared/records";
import { ConfirmDialog, Modal } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { insertRecords } from "../records-write-mutation";
import { invalidateTableRecords } from "../records-update-mutation";
import { recordAdded } from "./record-added";
import { buildRecord, formFields, isRequired } from "./new-record.utils";
import "./add-record.css";
import { type AddRequest, addRequest, useAddRequest } from "./add-request-store";

export const NO_INSERT_REASON = "This upstream has no insert extension: add Records with its own tools (or a CSV import where offered).";

interface Props {
  db: string;
  table: string;
  fields: FieldInfo[] | undefined;
  canInsert: boolean;
  /** Why this person may not add Records here (their role), when they may not. */
  deniedReason?: string;
  /** Why this person may not delete Records here, when they may not (an add then has no undo). */
  noDelete?: string;
}

export function AddRecord({ db, table, fields, canInsert, deniedReason, noDelete }: Props) {
  const [open, setOpen] = useState<AddRequest | false>(false);
  const usable = canInsert && !deniedReason && !!fields?.length;
  // The row menu's "Duplicate": the form, prefilled.
  const request = useAddRequest((s) => s.request);
  useEffect(() => {
    if (!request) return;
    addRequest.taken();
    if (usable) setOpen(request);
    else toast(deniedReason ?? NO_INSERT_REASON);
  }, [request, usable, deniedReason]);
  useEffect(() => {
    // The fields still loading: nothing to open yet, and nothing to say.
    if (!usable && canInsert && !deniedReason) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Enter" && e.shiftKey && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        // Where the person may not add, the shortcut says why, as the button does (review 49b #5:
        // it did nothing, without a word).
        if (usable) setOpen({ texts: {} });
        else toast(deniedReason ?? NO_INSERT_REASON);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [usable, canInsert, deniedReason]);
  if (!canInsert || deniedReason) {
    const why = deniedReason ?? NO_INSERT_REASON;
    return (
      <button type="button" className="btn" aria-disabled="true" title={why} aria-description={why} onClick={() => toast(why)}>
        Add Record
      </button>
    );
  }
  return (
    <>
      <button type="button" className="btn btn-primary" disabled={!usable} onClick={() => setOpen({ texts: {} })} title="Add a Record (Ctrl/⌘+Shift+Enter)" aria-keyshortcuts="Control+Shift+Enter Meta+Shift+Enter">
        Add Record
      </button>
      {open && fields && <NewRecordDialog db={db} table={table} fields={fields} initial={open} noDelete={noDelete} onClose={() => setOpen(false)} />}
    </>
  );
}

function NewRecordDialog({ db, table, fields, initial, noDelete, onClose }: { db: string; table: string; fields: FieldInfo[]; initial: AddRequest; noDelete: string | undefined; onClose(): void }) {
  const [texts, setTexts] = useState<Record<string, string>>(initial.texts);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Asked after a refusal: once it is on screen, the eye (and the focus) goes to what to fix,
  // the first Field with a problem, else the service's message above the Fields.
  const [showProblem, setShowProblem] = useState(0);
  useEffect(() => {
    if (!showProblem) return;
    const target = document.querySelector<HTMLElement>(".add-record-form [aria-invalid=true]") ?? document.querySelector<HTMLElement>(".add-record-form .add-record-error");
    target?.scrollIntoView({ block: "nearest" });
    target?.focus();
  }, [showProblem]);
  const qc = useQueryClient();
  const formId = useId();
  const shown = formFields(fields);
  const pk = shown.find((f) => f.primaryKey)?.key ?? "";
  // Esc, × and the backdrop ask first when something was typed (one stray Esc lost a whole
  // Record's typing: review 36b #3); Cancel is the choice to leave it.
  const typedInto = shown.filter((f) => (texts[f.key] ?? "") !== (initial.texts[f.key] ?? "")).map((f) => f.key);
  const [asking, setAsking] = useState(false);
  const leave = () => (typedInto.length && !busy ? setAsking(true) : onClose());

  const submit = async () => {
    setError(null);
    const built = buildRecord(fields, texts);
    if (!built.ok) {
      setProblems(built.problems);
      setShowProblem((n) => n + 1);
      return;
    }
    setProblems({});
    setBusy(true);
    try {
      await insertRecords(db, table, [built.record]);
      recordAdded({ db, table, pkField: pk, record: built.record, noDelete });
      await invalidateTableRecords(qc, db, table);
      onClose();
    } catch (e) {
      const message = e instanceof ApiError || e instanceof Error ? e.message : String(e);
      // The key taken: said at the key, where it is fixed; anything else above the Fields.
      if (e instanceof ApiError && e.status === 409 && pk) setProblems({ [pk]: message });
      else setError(message);
      setShowProblem((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={initial.copyOf !== undefined ? `New Record in ${table}: a copy of ${initial.copyOf}` : `New Record in ${table}`}
      onClose={leave}
      className="add-record-dialog"
      footer={
        <>
          <span className="muted small">* required</span>
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy} title="Add Record (Enter, or Ctrl/⌘+Enter)" aria-keyshortcuts="Control+Enter Meta+Enter">
            Add Record
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="add-record-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        onKeyDown={(e) => {
          // Ctrl/⌘+Enter adds, as it applies a filter and saves the record panel (review 38b #5).
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.shiftKey) {
            e.preventDefault();
            if (!busy) void submit();
          }
        }}
      >
        {error && (
          <p className="error-text add-record-error" role="alert" tabIndex={-1}>
            {error}
          </p>
        )}
        {shown.map((f, i) => {
          const id = `${formId}-${i}`;
          const problem = problems[f.key];
          return (
            <div key={f.key} className="add-record-field">
              <label htmlFor={id}>
                {f.key}
                {isRequired(f) && <span aria-hidden="true"> *</span>}
                <span className="muted small"> {f.primaryKey ? "primary key" : f.type}</span>
              </label>
              <input
                id={id}
                className="input"
                value={texts[f.key] ?? ""}
                required={isRequired(f)}
                aria-required={isRequired(f)}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-problem` : undefined}
                data-autofocus={i === 0 ? "" : undefined}
                placeholder={placeholder(f)}
                onChange={(e) => setTexts((t) => ({ ...t, [f.key]: e.target.value }))}
              />
              {problem && (
                <p id={`${id}-problem`} className="error-text small">
                  {problem}
                </p>
              )}
            </div>
          );
        })}
      </form>
      {asking && (
        <ConfirmDialog title="Discard this new Record?" confirmLabel="Discard" cancelLabel="Keep editing" danger onConfirm={onClose} onCancel={() => setAsking(false)}>
          <p>
            What you typed into {typedInto.join(", ")} has not been added. Discard it, or keep editing and press Add Record.
          </p>
        </ConfirmDialog>
      )}
    </Modal>
  );
}

function placeholder(f: FieldInfo): string {
  switch (f.type) {
    case "number":
      return "e.g. 42";
    case "boolean":
      return "true or false";
    case "date":
      return "YYYY-MM-DD";
    case "datetime":
      return "2024-03-01T09:30:00Z";
    case "json":
      return '{"a": 1}';
    default:
      return f.nullable && !f.primaryKey ? "empty = null" : "";
  }
}
