/**
 * Export the current view (filter, sort, columns, join) or the selected Records to CSV or JSON.
 * A worker pages through the API; chunks go to the file as they arrive, with progress and Cancel.
 */
import { useEffect, useRef, useState } from "react";
import type { QueryBody, RecordValue } from "../../../shared/records";
import { Dialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { pkFilter } from "../grid/edit.utils";
import { fmtInt } from "../values/values.utils";
import { exportFileName, type ExportFormat } from "./export-format.utils";
import type { ExportJob, ExportMessage } from "./export.worker";
import { type FileSink, openSink } from "./file-sink";
import "./export.css";

interface Props {
  db: string;
  table: string;
  /** The view's query (filter, sort, join, select), without limit and skip. */
  body: QueryBody;
  keys: string[];
  pkField: string;
  count: number | undefined;
  selection: RecordValue[];
  initialScope: "view" | "selection";
  onClose(): void;
}

const PAGE = 5000;
const PK_GROUP = 500;

export default function ExportDialog(p: Props) {
  const [format, setFormat] = useState<ExportFormat>("csv");
  // On by default: Excel reads a CSV without a byte-order mark as the local code page (Müller → MÃ¼ller).
  const [bom, setBom] = useState(true);
  // On by default too: a cell's text must not run as a formula in whoever opens the file.
  const [guardFormulas, setGuardFormulas] = useState(true);
  const [scope, setScope] = useState<"view" | "selection">(p.selection.length ? p.initialScope : "view");
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const job = useRef<{ worker: Worker; sink: FileSink } | null>(null);

  const stop = () => {
    job.current?.worker.terminate();
    void job.current?.sink.abort();
    job.current = null;
  };
  useEffect(() => stop, []);

  const start = async () => {
    setError(null);
    const name = exportFileName(p.table, format);
    const sink = await openSink(name, format === "csv" ? "text/csv" : "application/json");
    if (!sink) return;
    const worker = new Worker(new URL("./export.worker.ts", import.meta.url), { type: "module" });
    job.current = { worker, sink };
    const pks = scope === "selection" ? p.selection : undefined;
    const msg: ExportJob = {
      path: `/api/v0/record/${encodeURIComponent(p.db)}/${encodeURIComponent(p.table)}/query`,
      body: p.body,
      keys: p.keys,
      format,
      bom,
      guardFormulas,
      pageSize: PAGE,
      pkGroups: pks ? Array.from({ length: Math.ceil(pks.length / PK_GROUP) }, (_, i) => pkFilter(p.pkField, pks.slice(i * PK_GROUP, (i + 1) * PK_GROUP))) : undefined,
    };
    setProgress({ done: 0, total: pks ? pks.length : (p.count ?? 0) });
    // Writes are chained so they reach the file in order; the worker never waits for them.
    let writes = Promise.resolve();
    worker.onmessage = (e: MessageEvent<ExportMessage>) => {
      const m = e.data;
      if (m.kind === "chunk") {
        writes = writes.then(() => sink.write(m.data));
        setProgress((old) => ({ done: m.done, total: m.total || old?.total || 0 }));
      } else if (m.kind === "end") {
        worker.terminate();
        void writes
          .then(() => sink.close())
          .then(() => {
            job.current = null;
            toast(`Exported ${fmtInt(m.done)} Record${m.done === 1 ? "" : "s"}`, { kind: "success", detail: sink.kind === "file" ? `Saved as ${name}.` : `Downloaded as ${name}.` });
            p.onClose();
          })
          .catch((err: Error) => setError(`Could not write the file: ${err.message}`));
      } else {
        stop();
        setProgress(null);
        setError(`The export stopped: ${m.message} Nothing was saved.`);
      }
    };
    worker.onerror = (e) => {
      stop();
      setProgress(null);
      setError(`The export stopped: ${e.message}`);
    };
    worker.postMessage(msg);
  };

  const running = progress !== null;
  const pct = progress && progress.total ? Math.min(100, Math.round((progress.done / progress.total) * 100)) : 0;
  return (
    <Dialog labelledBy="export-title" className="export-dialog" canClose={!running} onClose={p.onClose}>
      <div onKeyDown={(e) => e.stopPropagation()}>
        <header className="dialog-head">
          <h2 id="export-title">Export Records</h2>
        </header>
        <fieldset className="export-choice" disabled={running}>
          <legend>Records</legend>
          <label>
            <input type="radio" name="scope" checked={scope === "view"} onChange={() => setScope("view")} /> Every Record of this view{p.count !== undefined ? ` (${fmtInt(p.count)})` : ""}
          </label>
          <label>
            <input type="radio" name="scope" checked={scope === "selection"} disabled={!p.selection.length} onChange={() => setScope("selection")} /> The selected Records ({fmtInt(p.selection.length)})
          </label>
        </fieldset>
        <fieldset className="export-choice" disabled={running}>
          <legend>Format</legend>
          <label>
            <input type="radio" name="format" checked={format === "csv"} onChange={() => setFormat("csv")} /> CSV
          </label>
          <label>
            <input type="radio" name="format" checked={format === "json"} onChange={() => setFormat("json")} /> JSON
          </label>
          {format === "csv" && (
            <label>
              <input type="checkbox" checked={bom} onChange={(e) => setBom(e.target.checked)} /> Start with a UTF-8 byte-order mark (Excel then shows accented letters correctly)
            </label>
          )}
          {format === "csv" && (
            <label>
              <input type="checkbox" checked={guardFormulas} onChange={(e) => setGuardFormulas(e.target.checked)} /> Keep texts from running as spreadsheet formulas (a text starting with =, +, -
              or @ is written after a &apos;; untick for a file to import back)
            </label>
          )}
        </fieldset>
        <p className="muted small">Columns: {p.keys.join(", ")}. Filter, sort and join as shown.</p>
        {running && (
          <div className="export-progress" role="status" aria-live="polite">
            <progress max={100} value={pct} aria-label="Export progress" />
            <span data-testid="export-progress">
              {fmtInt(progress.done)} of {fmtInt(progress.total)} Records
            </span>
          </div>
        )}
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <footer className="dialog-foot">
          <span className="spacer" />
          {running ? (
            <button
              type="button"
              className="btn"
              onClick={() => {
                stop();
                setProgress(null);
                toast("Export cancelled", { detail: "Nothing was saved." });
              }}
            >
              Cancel export
            </button>
          ) : (
            <>
              <button type="button" className="btn" onClick={p.onClose}>
                Close
              </button>
              <button type="button" className="btn btn-primary" onClick={start}>
                Export
              </button>
            </>
          )}
        </footer>
      </div>
    </Dialog>
  );
}
