import { useGridStore, gridActions } from "./grid/grid-store";
import { fmtInt } from "./values/values.utils";
import { type DeleteRights, DeleteSelected } from "./delete/DeleteSelected";
import { DeleteMatching } from "./delete/DeleteMatching";
import type { FilterGroup } from "../../shared/filter";
import { toast } from "../ui/toast";

const fmt = fmtInt;

interface Props {
  count: number | undefined;
  pageSize: number;
  onBulk(kind: "rows" | "filter"): void;
  /** Why this person may not change the table (their role or grant); undefined when they may. */
  changeWhy?: string;
  /** For deleting the selected Records (issue 24); absent: no delete button. */
  deletion?: DeleteRights;
  /** The view's filter: what "all matching" deletes; `joined` when the view joins another table. */
  filter?: FilterGroup;
  joined?: boolean;
}

export function SelectionBar({ count, pageSize, onBulk, changeWhy, deletion, filter, joined }: Props) {
  const { selected, allMatching } = useGridStore();
  if (!selected.size && !allMatching) return null;
  return (
    <div className="selection-bar" role="region" aria-label="Selection">
      {allMatching ? (
        <span>
          All <strong>{fmt(count ?? 0)}</strong> Records matching this filter are selected.
        </span>
      ) : (
        <span>
          <strong>{fmt(selected.size)}</strong> Record{selected.size === 1 ? "" : "s"} selected.
          {count !== undefined && count > selected.size && selected.size >= Math.min(pageSize, count) && (
            <button type="button" className="btn-link" onClick={() => gridActions.selectAllMatching(true)}>
              Select all {fmt(count)} Records matching this filter
            </button>
          )}
        </span>
      )}
      <span className="spacer" />
      {/* Refused: focusable, and says why when pressed (a disabled button tells a keyboard user nothing). */}
      <button
        type="button"
        className={changeWhy === undefined ? "btn btn-primary btn-sm" : "btn btn-sm"}
        aria-disabled={changeWhy !== undefined || undefined}
        title={changeWhy}
        aria-description={changeWhy}
        onClick={() => (changeWhy === undefined ? onBulk(allMatching ? "filter" : "rows") : toast(changeWhy))}
      >
        {allMatching ? `Update all ${fmt(count ?? 0)}…` : `Update ${fmt(selected.size)} selected…`}
      </button>
      {deletion && !allMatching && <DeleteSelected {...deletion} />}
      {deletion && allMatching && count !== undefined && <DeleteMatching {...deletion} filter={filter} count={count} joined={joined} />}
      <button type="button" className="btn btn-sm" onClick={() => gridActions.clearSelection()}>
        Clear selection
      </button>
    </div>
  );
}
