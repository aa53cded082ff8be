/**
 * A CSV dropped on a table: the same preview as a paste (what changes, what is new, what cannot
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
import { pkFilter } from "../grid/edit.utils";
import { fmtInt } from "../values/values.utils";
import { invalidateTableRecords, queryRecords } from "../records-queries";
import { type ImportPlan, planImport, planSummary, readCsv } from "./import-plan.utils";
import { importCsv } from "./record-import-mutation";
import "../clipboard/clipboard.css";

interface Props {
  db: string;
  table: string;
  file: File;
  fields: readonly FieldInfo[];
  pkField: string;
  onClose(): void;
}

type State =
  | { kind: "reading" }
  | { kind: "refused"; message: string }
  | { kind: "preview"; plan: ImportPlan; rows: number; errors: ReturnType<typeof readCsv> & { ok: true } }
  | { kind: "sending" }
  | { kind: "done"; inserted: number; updated: number };

const plural = (n: number, one: string) => `${fmtInt(n)} ${one}${n === 1 ? "" : "s"}`;

async function currentRecords(db: string, table: string, pkField: string, keys: string[], pks: RecordValue[]): Promise<RecordRow[]> {
  const out: RecordRow[] = [];
  for (let i = 0; i < pks.length; i += 500) {
    const chunk = pks.slice(i, i + 500);
    const r = await queryRecords(db, table, { filter: pkFilter(pkField, chunk), select: keys, limit: chunk.length });
    out.push(...r.items);
  }
  return out;
}

export default function ImportDialog(p: Props) {
  const qc = useQueryClient();
  const [state, setState] = useState<State>({ kind: "reading" });

  useEffect(() => {
    let live = true;
    (async () => {
      const read = readCsv(await p.file.text(), p.fields);
      if (!read.ok) return live && setState({ kind: "refused", message: read.message });
      const existing = await currentRecords(p.db, p.table, p.pkField, read.keys, read.rows.map((r) => r.pk));
      if (live) setState({ kind: "preview", plan: planImport(read.rows, existing, p.fields, p.pkField), rows: read.rows.length, errors: read });
    })().catch((e: Error) => live && setState({ kind: "refused", message: e.message }));
    return () => {
      live = false;
    };
  }, [p.file, p.fields, p.db, p.table, p.pkField]);

  const send = async () => {
    setState({ kind: "sending" });
    try {
      const r = await importCsv(p.db, p.table, p.file);
      setState({ kind: "done", inserted: r.inserted, updated: r.updated });
      toast(`Imported ${p.file.name}`, { kind: "success", detail: `${plural(r.inserted, "Record")} added, ${plural(r.updated, "Record")} updated.` });
      void invalidateTableRecords(qc, p.db, p.table);
    } catch (e) {
      const message = e instanceof ApiError ? e.message : (e as Error).message;
      setState({ kind: "refused", message: `Nothing was imported: ${message}` });
    }
  };

  const busy = state.kind === "sending" || state.kind === "reading";
  return (
    <Dialog labelledBy="import-title" className="import-dialog" canClose={state.kind !== "sending"} onClose={p.onClose}>
      <div onKeyDown={(e) => e.stopPropagation()}>
        <header className="dialog-head">
          <h2 id="import-title">Import {p.file.name}</h2>
        </header>
        {state.kind === "reading" && <p role="status">Reading the file and the Records it names…</p>}
        {state.kind === "sending" && <p role="status">Importing…</p>}
        {state.kind === "refused" && (
          <p className="error-text" role="alert">
            {state.message}
          </p>
        )}
        {state.kind === "done" && (
          <p role="status" data-testid="import-outcome">
            {plural(state.inserted, "Record")} added, {plural(state.updated, "Record")} updated.
          </p>
        )}
        {state.kind === "preview" && (
          <>
            <p data-testid="import-summary">
              {plural(state.rows, "row")}: {planSummary(state.plan)}. All or nothing; an import cannot be undone.
              {state.errors.errors.length > 0 && <strong className="error-text"> {plural(state.errors.errors.length, "cell")} cannot be written (in red): fix the file and drop it again.</strong>}
            </p>
            <ChangeTable changes={[...state.errors.errors, ...state.plan.changes]} isNew={(pk) => state.plan.newPks.has(JSON.stringify(pk))} />
          </>
        )}
        <footer className="dialog-foot">
          <span className="spacer" />
          <button type="button" className="btn" onClick={p.onClose} disabled={state.kind === "sending"}>
            {state.kind === "preview" ? "Cancel" : "Close"}
          </button>
          {state.kind === "preview" && (
            <button type="button" className="btn btn-primary" onClick={send} disabled={busy || state.errors.errors.length > 0 || (state.plan.changes.length === 0)}>
              Import {plural(state.rows, "row")}
            </button>
          )}
        </footer>
      </div>
    </Dialog>
  );
}
