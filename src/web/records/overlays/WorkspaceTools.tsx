/**
 * The workspace's buttons for the grid features: Export, saved views, and Import (only when
 * the upstream has the import extension). Small and eager; what they open is lazy.
 */
import { useRef, useState } from "react";
import { Icon } from "../../ui/icons";
import { useGridStore } from "../grid/grid-store";
import { ContextMenu } from "../context-menu/ContextMenu";
import { overlayActions } from "./overlay-store";

export function WorkspaceTools({ canImport, hasViews }: { canImport: boolean; hasViews: boolean }) {
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const viewsBtn = useRef<HTMLButtonElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const selected = useGridStore((s) => s.selected.size);
  return (
    <>
      {/* Narrow windows show the icon only (styles.css .btn-label); the name stays in aria-label. */}
      <button
        type="button"
        className="btn"
        aria-label="Export…"
        onClick={() => overlayActions.exportView(selected ? "selection" : "view")}
        title="Export the view or the selection to CSV or JSON"
      >
        <Icon name="download" />
        <span className="btn-label">Export…</span>
      </button>
      {canImport && (
        <>
          <button
            type="button"
            className="btn"
            aria-label="Import…"
            onClick={() => file.current?.click()}
            title="Update or insert Records from a CSV file, or a JSON file as Export writes it (or drop one on the grid)"
          >
            <Icon name="upload" />
            <span className="btn-label">Import…</span>
          </button>
          <input
            ref={file}
            type="file"
            accept=".csv,text/csv,.json,application/json"
            hidden
            data-testid="import-input"
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = "";
              if (f) overlayActions.importFile(f);
            }}
          />
        </>
      )}
      <button
        ref={viewsBtn}
        type="button"
        className="btn"
        aria-haspopup="menu"
        aria-expanded={!!menu}
        onClick={() => {
          const r = viewsBtn.current!.getBoundingClientRect();
          setMenu(menu ? null : { x: r.left, y: r.bottom + 4 });
        }}
      >
        Views ▾
      </button>
      {menu && (
        <ContextMenu
          x={menu.x}
          y={menu.y}
          label="Saved views"
          items={[
            { label: "Save this view…", run: () => overlayActions.saveView(true) },
            { label: hasViews ? "Manage saved views…" : "Manage saved views (import JSON)…", run: () => overlayActions.manageViews(true) },
          ]}
          onClose={() => {
            setMenu(null);
            viewsBtn.current?.focus();
          }}
        />
      )}
    </>
  );
}
