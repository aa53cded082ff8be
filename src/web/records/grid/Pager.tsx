import { lastPage, pageSizes, rangeLabel } from "../view-search.utils";
import { fmtInt } from "../values/values.utils";
import { Icon } from "../../ui/icons";

interface Props {
  page: number;
  size: number;
  count: number | undefined;
  onPage(page: number): void;
  onSize(size: number): void;
}

export function Pager({ page, size, count, onPage, onSize }: Props) {
  const last = count === undefined ? page : lastPage(count, size);
  // aria-disabled, not disabled: a button pressed to the first or last page stays focusable, so
  // the focus stays on it rather than falling to the page (review 32b #2).
  const to = (off: boolean, target: number) => ({ "aria-disabled": off || undefined, onClick: () => off || onPage(target) });
  return (
    <nav className="pager" aria-label="Pages">
      <label className="row gap-sm small">
        Rows per page
        <select className="input input-sm" value={size} onChange={(e) => onSize(Number(e.target.value))} aria-label="Rows per page">
          {pageSizes.map((s) => (
            <option key={s} value={s}>
              {fmtInt(s)}
            </option>
          ))}
        </select>
      </label>
      <span className="spacer" />
      <span className="range" aria-live="polite" data-testid="range">
        {count === undefined ? "…" : rangeLabel(page, size, count)}
      </span>
      <span className="pager-buttons">
        <button type="button" className="btn-icon" aria-label="First page" title="First page" {...to(page <= 1, 1)}>
          <Icon name="first" size={14} />
        </button>
        <button type="button" className="btn-icon" aria-label="Previous page" title="Previous page ([)" {...to(page <= 1, page - 1)}>
          <Icon name="left" size={14} />
        </button>
        <span className="small muted page-of">
          Page {fmtInt(page)}
          {count === undefined ? "" : ` of ${fmtInt(last)}${page > last ? " (past the end)" : ""}`}
        </span>
        <button type="button" className="btn-icon" aria-label="Next page" title="Next page (])" {...to(page >= last, page + 1)}>
          <Icon name="right" size={14} />
        </button>
        <button type="button" className="btn-icon" aria-label="Last page" title="Last page" {...to(page >= last, last)}>
          <Icon name="last" size={14} />
        </button>
      </span>
    </nav>
  );
}
