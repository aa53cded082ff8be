/**
 * A CSV (or a JSON export) dropped on a table: the same preview as a paste (what changes, what is new, what cannot
 * be written, by line), then the file goes as it is to the import endpoint, which updates or
 * inserts by primary key, all or nothing.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { FieldInfo, RecordRow, RecordValue } from "../../../shared/records";
import { ApiError } from "../../api-client";
import { Dialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { ChangeTable } from "../clipboard/ChangeTable";
import type { CellChange } from "../clipboard/paste.utils";
import { pkFilter } from "../grid/edit.utils";
import { fmtInt } from "../values/values.utils";
import { queryRecords } from "../records-list-query";
import { invalidateTableRecords } from "../records-update-mutation";
import { csvWithout, importCounts, type ImportPlan, importUndo, isJsonFile, planImport, planSummary, readCsv, readJson, fileText } from "./import-plan.utils";
import { undoActions } from "../undo/undo-store";
import { undoLast } from "../undo/use-undo";
import { importCsv } from "./record-import-mutation";
import "../clipboard/clipboard.css";

interface Props {
  db: string;
  table: string;
  file: File;
  fields: readonly FieldInfo[];
  pkField: string;
  /** Why Records of this table may not be deleted here (undoing the import's added ones would), if so. */
  noDelete?: string;
  onClose(): void;
}

/** How far reading the Records a file names has come (they are read a few hundred at a time). */
interface Reading {
  done: number;
  total: number;
}

type State =
  | { kind: "reading"; progress?: Reading }
  | { kind: "refused"; message: string }
  | { kind: "preview"; plan: ImportPlan; rows: number; errors: ReturnType<typeof readJson> & { ok: true } }
  | { kind: "sending"; progress?: Reading }
  | { kind: "done"; inserted: number; updated: number; changed: number; undo: string; skipped: CellChange[]; unit: "line" | "item" };

const plural = (n: number, one: string) => `${fmtInt(n)} ${one}${n === 1 ? "" : "s"}`;

/** What Undo will do for an import of this plan: all of it, or (where Records may not be deleted here) its changes only. */
function undoPromise(plan: ImportPlan, noDelete: string | undefined): string {
  if (!plan.newPks.size || noDelete === undefined) return "All or nothing; Undo takes it back.";
  return `All or nothing; Undo would take back its changes, not the ${plural(plan.newPks.size, "Record")} it adds: ${noDelete}`;
}

/** "2 cells cannot be written and 1 line does not match the header": what the preview shows in red. */
function problemsText(read: ReturnType<typeof readCsv> & { ok: true }): string {
  const misshapen = read.rows.filter((r) => r.misshapen).length;
  const cells = read.errors.length - misshapen;
  return [cells ? `${plural(cells, "cell")} cannot be written` : "", misshapen ? `${plural(misshapen, "line")} ${misshapen === 1 ? "does" : "do"} not match the header` : ""]
    .filter(Boolean)
    .join(" and ");
}

const CHUNK = 500;
/** Requests at once: the service reads on a few connections; more would only queue there. */
const AT_ONCE = 3;

/** The Records `pks` name, as they are now, a chunk per request, a few at once, saying how far it got. */
async function currentRecords(db: string, table: string, pkField: string, keys: string[], pks: RecordValue[], progress: (r: Reading) => void): Promise<RecordRow[]> {
  const chunks: RecordValue[][] = [];
  for (let i = 0; i < pks.length; i += CHUNK) chunks.push(pks.slice(i, i + CHUNK));
  const found: RecordRow[][] = new Array(chunks.length);
  let next = 0;
  let done = 0;
  progress({ done, total: pks.length });
  const worker = async () => {
    while (next < chunks.length) {
      const i = next++;
      const r = await queryRecords(db, table, { filter: pkFilter(pkField, chunks[i]), select: keys, limit: chunks[i].length });
      found[i] = r.items;
      done += chunks[i].length;
      progress({ done, total: pks.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, chunks.length) }, worker));
  return found.flat();
}

function ReadingStatus({ what, progress }: { what: string; progress?: Reading }) {
  const big = progress && progress.total > CHUNK;
  return (
    <div role="status">
      <p>
        {what}
        {big ? `: ${fmtInt(progress.done)} of ${plural(progress.total, "Record")}…` : "…"}
      </p>
      {big && <progress max={progress.total} value={progress.done} aria-label={what} />}
    </div>
  );
}

export default function ImportDialog(p: Props) {
  const qc = useQueryClient();
  const [state, setState] = useState<State>({ kind: "reading" });

  useEffect(() => {
    let live = true;
    (async () => {
      const text = fileText(await p.file.arrayBuffer());
      if (!text.ok) return live && setState({ kind: "refused", message: text.message });
      // A JSON file (Export → JSON's array of Records) is read as the CSV the export would write.
      const read = isJsonFile(p.file.name, p.file.type, text.text) ? readJson(text.text, p.fields) : readCsv(text.text, p.fields);
      if (!read.ok) return live && setState({ kind: "refused", message: read.message });
      const existing = await currentRecords(p.db, p.table, p.pkField, read.keys, read.rows.filter((r) => !r.misshapen).map((r) => r.pk), (progress) => live && setState({ kind: "reading", progress }));
      // The plan covers the rows that can be written; the others are listed as errors, beside
      // what their Record holds now (when it exists).
      const now = new Map(existing.map((r) => [JSON.stringify(r[p.pkField]), r]));
      const errors = read.errors.map((e) => (e.before === undefined ? { ...e, before: now.get(JSON.stringify(e.pk))?.[e.field.key] } : e));
      if (live) setState({ kind: "preview", plan: planImport(read.rows.filter((r) => !r.bad), existing, p.fields, p.pkField), rows: read.rows.length, errors: { ...read, errors } });
    })().catch((e: Error) => live && setState({ kind: "refused", message: e.message }));
    return () => {
      live = false;
    };
  }, [p.file, p.fields, p.db, p.table, p.pkField]);

  const send = async (skipInvalid: boolean) => {
    if (state.kind !== "preview") return;
    const read = state.errors;
    const good = read.rows.filter((r) => !r.bad);
    setState({ kind: "sending" });
    try {
      // The before-images for undo, read just before sending (as a bulk update does): the
      // preview may be minutes old.
      const existing = await currentRecords(p.db, p.table, p.pkField, read.keys, good.map((r) => r.pk), (progress) => setState({ kind: "sending", progress }));
      setState({ kind: "sending" });
      const plan = planImport(good, existing, p.fields, p.pkField);
      const undo = importUndo(plan, good);
      // A JSON file goes as the CSV it was read as (the service's import reads CSV).
      const body = skipInvalid ? new Blob([csvWithout(read.keys, read.rows)], { type: "text/csv" }) : read.csv !== undefined ? new Blob([read.csv], { type: "text/csv" }) : p.file;
      const r = await importCsv(p.db, p.table, body);
      // The service counts every Record the file names as updated; the plan, read just before,
      // knows which of them the file really changes.
      const changed = Math.min(plan.updated, r.updated);
      const outcome = { inserted: r.inserted, updated: r.updated, changed };
      // Undoing the Records it added deletes them: where this person may not delete, Undo
      // takes back its changes only, and says so (it used to try, and be refused by the proxy).
      const keepsAdded = undo.inserted.length > 0 && p.noDelete !== undefined;
      const undoable = undo.changes.length > 0 || (undo.inserted.length > 0 && !keepsAdded);
      const undoText = !undoable
        ? `It cannot be undone here: that would delete the ${plural(undo.inserted.length, "Record")} it added. ${p.noDelete ?? ""}`
        : keepsAdded
          ? `Undo (Ctrl+Z) takes back its changes; the ${plural(undo.inserted.length, "Record")} it added would stay. ${p.noDelete}`
          : "Undo (Ctrl+Z) takes the import back.";
      setState({ kind: "done", ...outcome, undo: undoText, skipped: skipInvalid ? read.errors : [], unit: read.unit ?? "line" });
      if (undoable) {
        undoActions.record({
          id: `${Date.now()}-import`,
          label: keepsAdded ? `Import ${p.file.name} (its changes)` : `Import ${p.file.name}`,
          db: p.db,
          table: p.table,
          pkField: p.pkField,
          at: Date.now(),
          changes: undo.changes,
          jsonFields: p.fields.filter((f) => f.type === "json").map((f) => f.key),
          ...(undo.inserted.length && !keepsAdded ? { rows: { kind: "insert" as const, records: undo.inserted } } : {}),
        });
      }
      toast(`Imported ${p.file.name}`, { kind: "success", detail: `${importCounts(outcome)}.`, ...(undoable ? { action: undoLast() } : {}) });
      void invalidateTableRecords(qc, p.db, p.table);
    } catch (e) {
      const message = e instanceof ApiError ? e.message : (e as Error).message;
      setState({ kind: "refused", message: `Nothing was imported: ${message}` });
    }
  };

  const busy = state.kind === "sending" || state.kind === "reading";
  // A CSV's lines and rows; a JSON file's items (the array's objects).
  const unit = state.kind === "preview" ? (state.errors.unit ?? "line") : "line";
  const row = unit === "item" ? "item" : "row";
  const badLines = state.kind === "preview" ? state.errors.rows.filter((r) => r.bad).length : 0;
  return (
    <Dialog labelledBy="import-title" className="import-dialog" canClose={state.kind !== "sending"} onClose={p.onClose}>
      <div onKeyDown={(e) => e.stopPropagation()}>
        <header className="dialog-head">
          <h2 id="import-title">Import {p.file.name}</h2>
        </header>
        {state.kind === "reading" && <ReadingStatus what="Reading the file and the Records it names" progress={state.progress} />}
        {state.kind === "sending" && (state.progress ? <ReadingStatus what="Keeping what the import overwrites, for Undo" progress={state.progress} /> : <p role="status">Importing…</p>)}
        {state.kind === "refused" && (
          <p className="error-text" role="alert">
            {state.message}
          </p>
        )}
        {state.kind === "done" && (
          <div role="status" data-testid="import-outcome">
            <p>
              {importCounts(state)}. {state.undo}
            </p>
            {state.skipped.length > 0 && (
              <>
                <p className="warn-text" data-testid="import-skipped">
                  Skipped, as chosen: {plural(new Set(state.skipped.map((c) => /^(?:line|item) (\d+)/.exec(c.error ?? "")?.[1])).size, state.unit)} not imported:
                </p>
                <ChangeTable changes={state.skipped} />
              </>
            )}
          </div>
        )}
        {state.kind === "preview" && (
          <>
            <p data-testid="import-summary">
              {badLines === 0 ? (
                <>
                  {plural(state.rows, row)}: {planSummary(state.plan)}. {undoPromise(state.plan, p.noDelete)}
                </>
              ) : badLines < state.rows ? (
                <>
                  {plural(state.rows, row)}; {plural(state.rows - badLines, unit)} without a problem: {planSummary(state.plan)}. {undoPromise(state.plan, p.noDelete)}{" "}
                  <strong className="error-text">
                    {problemsText(state.errors)} (in red): fix the file and import it again, or skip {plural(badLines, unit)} and import the rest.
                  </strong>
                </>
              ) : (
                <strong className="error-text">
                  {plural(state.rows, row)}, none of which can be imported: {problemsText(state.errors)} (in red). Fix the file and import it again.
                </strong>
              )}
            </p>
            <ChangeTable changes={[...state.errors.errors, ...state.plan.changes]} isNew={(pk) => state.plan.newPks.has(JSON.stringify(pk))} />
          </>
        )}
        <footer className="dialog-foot">
          <span className="spacer" />
          <button type="button" className="btn" onClick={p.onClose} disabled={state.kind === "sending"}>
            {state.kind === "preview" ? "Cancel" : "Close"}
          </button>
          {state.kind === "preview" && badLines > 0 && badLines < state.rows && (
            <button type="button" className="btn" onClick={() => void send(true)} disabled={busy || state.plan.changes.length === 0}>
              Skip {plural(badLines, `invalid ${unit}`)}, import {plural(state.rows - badLines, row)}
            </button>
          )}
          {state.kind === "preview" && (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void send(false)}
              disabled={busy || state.errors.errors.length > 0 || state.plan.changes.length === 0}
              title={state.errors.errors.length > 0 ? "Some cells cannot be written: fix the file, or skip those lines" : undefined}
            >
              {state.errors.errors.length > 0 ? `Import all ${plural(state.rows, row)}` : `Import ${plural(state.rows, row)}`}
            </button>
          )}
        </footer>
      </div>
    </Dialog>
  );
}
