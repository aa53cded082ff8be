/**
 * The records workspace's header: the table's name and count, who else is here, and the
 * view's tools (filter, columns, join, update by filter, add, import/export/views, undo,
 * refresh). Everything it changes goes through the callbacks: the view stays the URL.
 */
import type { FieldInfo, JoinUnit } from "../../../shared/records";
import { PresenceBar } from "../../team/live/PresenceBar";
import { Icon } from "../../ui/icons";
import { toast } from "../../ui/toast";
import { AddRecord } from "../add/AddRecord";
import type { GridColumn } from "../grid/columns.utils";
import { WorkspaceTools } from "../overlays/WorkspaceTools";
import { UndoButtons } from "../undo/UndoButtons";
import { fmtInt } from "../values/values.utils";
import type { View } from "../view-search.utils";
import { ColumnChooser } from "./ColumnChooser";
import { JoinPicker } from "./JoinPicker";

export interface RecordsToolbarProps {
  db: string;
  table: string;
  view: View;
  count: number | undefined;
  /** Conditions in the applied filter (the Filter button's badge). */
  conditions: number;
  filterOpen: boolean;
  onToggleFilter(): void;
  /** Why this person may not change the table, when they may not. */
  readOnlyWhy: string | undefined;
  fields: FieldInfo[] | undefined;
  columnsAll: GridColumn[];
  editableFields: FieldInfo[];
  siblings: { tables: string[]; fieldsOf(table: string): FieldInfo[] | undefined };
  primaryKeyOf(table: string): string | undefined;
  canInsert: boolean;
  /** Why this person may not delete Records here, when they may not. */
  deleteWhy: string | undefined;
  canImport: boolean;
  hasViews: boolean;
  onCols(cols: string[] | undefined): void;
  onJoin(join: JoinUnit | undefined): void;
  onUpdateMatching(): void;
  onRefresh(): void;
}

export function RecordsToolbar(p: RecordsToolbarProps) {
  const { view, count } = p;
  const countText = count !== undefined ? `${fmtInt(count)} Record${count === 1 ? "" : "s"}${view.filter ? (count === 1 ? " matches" : " match") : ""}` : "";
  return (
    <header className="ws-head">
      <h1 className="ws-title" title={`${p.db}.${p.table}`}>
        <span className="muted">{p.db}.</span>
        {p.table}
      </h1>
      <span className="muted small" data-testid="total-count" title={countText}>
        {countText}
      </span>
      <PresenceBar view={`table:${p.db}/${p.table}`} />
      <span className="spacer" />
      {p.readOnlyWhy !== undefined && (
        <span className="read-only-note" title={p.readOnlyWhy} aria-label={`Read-only. ${p.readOnlyWhy}`} tabIndex={0}>
          Read-only
        </span>
      )}
      <button
        type="button"
        className={`btn ${p.filterOpen ? "pressed" : ""}`}
        aria-expanded={p.filterOpen}
        onClick={p.onToggleFilter}
        aria-label={p.conditions > 0 ? `Filter (${p.conditions} condition${p.conditions === 1 ? "" : "s"} applied)` : "Filter"}
      >
        Filter{p.conditions > 0 && <span className="badge">{p.conditions}</span>}
      </button>
      <ColumnChooser all={p.columnsAll} cols={view.cols} onChange={p.onCols} />
      <JoinPicker
        tables={p.siblings.tables}
        baseFields={p.editableFields.concat((p.fields ?? []).filter((f) => f.primaryKey))}
        join={view.join}
        targetFields={p.siblings.fieldsOf}
        primaryKeyOf={p.primaryKeyOf}
        onChange={p.onJoin}
      />
      {p.editableFields.length ? (
        <button
          type="button"
          className="btn"
          onClick={p.onUpdateMatching}
          title={view.filter ? "Set fields on every Record the applied filter matches" : "No filter applied: set fields on every Record of the table"}
        >
          {view.filter ? "Update matching…" : "Update all…"}
        </button>
      ) : (
        // Focusable, with its reason read out and said on press, as Add Record (a disabled button
        // kept its reason in a hover title, out of reach of the keyboard and screen readers).
        <button
          type="button"
          className="btn"
          aria-disabled="true"
          title={p.readOnlyWhy ?? NO_EDITABLE}
          aria-description={p.readOnlyWhy ?? NO_EDITABLE}
          onClick={() => toast(p.readOnlyWhy ?? NO_EDITABLE)}
        >
          {view.filter ? "Update matching…" : "Update all…"}
        </button>
      )}
      <AddRecord db={p.db} table={p.table} fields={p.fields} canInsert={p.canInsert} deniedReason={p.readOnlyWhy} noDelete={p.deleteWhy} />
      <WorkspaceTools canImport={p.canImport} hasViews={p.hasViews} />
      <UndoButtons />
      <button type="button" className="btn btn-icon-text" onClick={p.onRefresh} aria-label="Refresh" title="Refresh">
        <Icon name="refresh" size={14} />
      </button>
    </header>
  );
}

const NO_EDITABLE = "No Field of this view can be edited (primary keys and joined Fields are read-only).";
