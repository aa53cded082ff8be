/** Name and save the current view of the table (a name it already has is replaced). */
import { useState } from "react";
import { Dialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import type { ViewSearch } from "../view-search.utils";
import { setViews, useSavedViews } from "./saved-views-store";
import { upsertView, viewPart } from "./saved-views.utils";

interface Props {
  db: string;
  table: string;
  search: ViewSearch;
  widths: Record<string, number> | undefined;
  onClose(): void;
}

export default function SaveViewDialog({ db, table, search, widths, onClose }: Props) {
  const [name, setName] = useState("");
  const views = useSavedViews((s) => s.views);
  const exists = views.some((v) => v.db === db && v.table === table && v.name === name.trim());
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) return;
    setViews(upsertView(views, { name: n, db, table, search: viewPart(search), widths: widths && Object.keys(widths).length ? { ...widths } : undefined }));
    toast(`Saved the view “${n}”`, { kind: "success", detail: "It is listed under the table in the sidebar." });
    onClose();
  };
  return (
    <Dialog labelledBy="save-view-title" className="save-view-dialog" onClose={onClose}>
      <form onSubmit={save} onKeyDown={(e) => e.stopPropagation()}>
        <header className="dialog-head">
          <h2 id="save-view-title">Save this view of {table}</h2>
        </header>
        <label className="field-label" htmlFor="view-name">
          Name
        </label>
        <input id="view-name" className="input" autoFocus maxLength={120} value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Sales, by salary" />
        <p className="muted small">Keeps the filter, sort, columns, column widths, join and page size.{exists ? " A view with this name exists: it will be replaced." : ""}</p>
        <footer className="dialog-foot">
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!name.trim()}>
            {exists ? "Replace view" : "Save view"}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}
