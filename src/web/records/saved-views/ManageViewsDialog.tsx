/** Rename, delete, share (copy the link), export and import the saved views. */
import { useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { configQueryOptions } from "../../app/config-get-query";
import { hiddenProbeQueryOptions } from "../../team/hidden-probe-query";
import { meQueryOptions } from "../../team/me-get-query";
import { type AnyRouter, useRouter } from "@tanstack/react-router";
import { Dialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { writeClipboard } from "../clipboard/copy";
import { setViews, useSavedViews } from "./saved-views-store";
import { mergeViews, readViews, type SavedView, toFile } from "./saved-views.utils";

/** The view's shareable URL. The router comes from React's context (useRouter), not an import of
 * app/router, which imports the workspace that opens this dialog (an import circle). */
function viewHref(router: AnyRouter, v: SavedView): string {
  const loc = router.buildLocation({ to: "/records/$db/$table", params: { db: v.db, table: v.table }, search: v.search });
  return new URL(loc.href, window.location.origin).href;
}

export default function ManageViewsDialog({ db, table, onClose }: { db: string; table: string; onClose(): void }) {
  const router = useRouter();
  const all = useSavedViews((s) => s.views);
  const config = useQuery(configQueryOptions()).data;
  const qc = useQueryClient();
  const people = useQuery(meQueryOptions()).data?.mode === "people";
  const views = all.filter((v) => v.db === db && v.table === table);
  const [names, setNames] = useState<Record<string, string>>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLButtonElement>(null);

  const [renameProblem, setRenameProblem] = useState<{ id: string; message: string } | null>(null);
  /**
   * A name another view of this table has, or none, is refused with why, and the name it had is
   * put back (review 53b #3: two views named alike could not be told apart; an empty one said nothing).
   */
  const rename = (v: SavedView) => {
    const n = (names[v.id] ?? v.name).trim();
    if (n === v.name) return setRenameProblem(null);
    const refuse = (message: string) => {
      setNames((typed) => ({ ...typed, [v.id]: v.name }));
      setRenameProblem({ id: v.id, message });
    };
    if (!n) return refuse(`A view needs a name: “${v.name}” is kept.`);
    if (views.some((x) => x.id !== v.id && x.name === n)) return refuse(`Another view of ${table} is named “${n}”: choose another name. “${v.name}” is kept.`);
    setRenameProblem(null);
    setViews(all.map((x) => (x.id === v.id ? { ...x, name: n } : x)));
    toast(`Renamed to “${n}”`, { kind: "success" });
  };
  /**
   * Deleted at once, with Undo on its toast (the view back where it was). The focus goes to the
   * next view's Delete, else the previous one's, else Done: the button under it is gone.
   */
  const remove = (v: SavedView, from: HTMLElement) => {
    const li = from.closest("li");
    const next = (li?.nextElementSibling ?? li?.previousElementSibling)?.querySelector<HTMLElement>("button.btn-danger");
    const at = all.findIndex((x) => x.id === v.id);
    setViews(all.filter((x) => x.id !== v.id));
    toast(`Deleted the view “${v.name}”`, {
      kind: "success",
      action: {
        label: "Undo",
        run: () => {
          const now = useSavedViews.getState().views;
          if (now.some((x) => x.id === v.id)) return;
          setViews([...now.slice(0, at), v, ...now.slice(at)]);
        },
      },
    });
    requestAnimationFrame(() => (next?.isConnected ? next : doneRef.current)?.focus());
  };
  const exportAll = () => {
    const blob = new Blob([JSON.stringify(toFile(all), null, 2)], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "baseboard-views.json";
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
  };
  const importFile = async (file: File) => {
    let json: unknown;
    try {
      json = JSON.parse(await file.text());
    } catch (e) {
      toast("Not imported", { kind: "error", detail: `${file.name} is not JSON: ${(e as Error).message}` });
      return;
    }
    const read = readViews(json);
    // A view of a table this Baseboard does not have could never be opened: said, not kept.
    const exists = (v: SavedView) => !config || config.databases.some((d) => d.id === v.db && d.tables.some((t) => t.slug === v.table));
    // A table hidden from this person (a grant of none) is missing from the catalog too: said as
    // the table's own page says it, with whom to ask, not as a table that does not exist (review 36b #5).
    const whyMissing = async (v: SavedView) => {
      const hidden = people ? await qc.fetchQuery(hiddenProbeQueryOptions("table", `${v.db}/${v.table}`)).catch(() => null) : null;
      return hidden ? `“${v.name}” is a view of ${v.db}/${v.table}: not imported. ${hidden}` : `“${v.name}” is a view of ${v.db}/${v.table}, which is not a table here: not imported.`;
    };
    const r = {
      views: read.views.filter(exists),
      problems: [...read.problems, ...(await Promise.all(read.views.filter((v) => !exists(v)).map(whyMissing)))],
    };
    if (!r.views.length) {
      toast("Nothing imported", { kind: "error", detail: r.problems.join(" ") });
      return;
    }
    setViews(mergeViews(all, r.views));
    toast(`Imported ${r.views.length} view${r.views.length === 1 ? "" : "s"}`, { kind: "success", detail: r.problems.join(" ") || undefined, ttlMs: r.problems.length ? 12_000 : undefined });
  };

  return (
    <Dialog labelledBy="views-title" className="views-dialog" onClose={onClose}>
      <div onKeyDown={(e) => e.stopPropagation()}>
        <header className="dialog-head">
          <h2 id="views-title">Saved views of {table}</h2>
          <button type="button" className="btn-icon" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        {views.length === 0 ? (
          <p className="muted">No saved views for this table yet.</p>
        ) : (
          <ul className="views-list">
            {views.map((v) => (
              <li key={v.id}>
                <input
                  className="input"
                  aria-label={`Name of view ${v.name}`}
                  aria-invalid={renameProblem?.id === v.id || undefined}
                  aria-describedby={renameProblem?.id === v.id ? `view-name-problem-${v.id}` : undefined}
                  value={names[v.id] ?? v.name}
                  onChange={(e) => setNames({ ...names, [v.id]: e.target.value })}
                  onKeyDown={(e) => e.key === "Enter" && rename(v)}
                  onBlur={() => rename(v)}
                />
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => writeClipboard(viewHref(router, v)).then(() => toast("Link copied", { kind: "success", detail: `Anyone with access to this Baseboard opens the same view: its filter, sort, columns, join and page size.${v.widths ? " Its column widths stay with the view in this browser; the link does not carry them." : ""}` }))}
                >
                  Copy link
                </button>
                <button type="button" className="btn btn-sm btn-danger" aria-label={`Delete view ${v.name}`} onClick={(e) => remove(v, e.currentTarget)}>
                  Delete
                </button>
                {renameProblem?.id === v.id && (
                  <p id={`view-name-problem-${v.id}`} className="error-text small views-name-problem" role="alert">
                    {renameProblem.message}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
        <footer className="dialog-foot">
          {/* A button (a label is not reached by Tab) that opens the hidden file input. */}
          <button type="button" className="btn" onClick={() => fileInput.current?.click()}>
            Import JSON…
          </button>
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            hidden
            onChange={(e) => {
              if (e.target.files?.[0]) importFile(e.target.files[0]);
              e.target.value = "";
            }}
          />
          <button type="button" className="btn" onClick={exportAll} disabled={!all.length}>
            Export all as JSON
          </button>
          <span className="spacer" />
          <button type="button" className="btn btn-primary" onClick={onClose} ref={doneRef}>
            Done
          </button>
        </footer>
      </div>
    </Dialog>
  );
}
