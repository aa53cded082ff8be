/** Show, hide and reorder columns; the result is the URL's `cols`, sent as `select`. */
import { type GridColumn, moveColumn, toggleColumn } from "../grid/columns.utils";
import { Popover } from "./Popover";

interface Props {
  all: GridColumn[];
  cols: string[] | undefined;
  onChange(cols: string[] | undefined): void;
}

export function ColumnChooser({ all, cols, onChange }: Props) {
  const order = cols ? [...cols, ...all.map((c) => c.key).filter((k) => !cols.includes(k))] : all.map((c) => c.key);
  const shown = new Set(cols ?? all.map((c) => c.key));
  const hidden = all.length - [...shown].filter((k) => all.some((c) => c.key === k)).length;
  return (
    <Popover label="Columns" badge={hidden > 0 ? <span className="badge">{hidden} hidden</span> : null}>
      {() => (
        <div className="col-chooser">
          <ul aria-label="Columns">
            {order.map((key) => {
              const col = all.find((c) => c.key === key);
              if (!col) return null;
              const visible = shown.has(key);
              return (
                <li key={key} className={visible ? "" : "muted"}>
                  <label className="row gap-sm grow">
                    <input
                      type="checkbox"
                      checked={visible}
                      aria-label={`Show ${key}`}
                      onChange={() => {
                        const next = toggleColumn(all, cols, key);
                        onChange(next.length ? next : [key]);
                      }}
                    />
                    <span className={col.joined ? "joined-name" : ""}>{key}</span>
                    <span className="th-type">{col.field.type}</span>
                  </label>
                  <button type="button" className="btn-icon" aria-label={`Move ${key} left`} disabled={!visible} onClick={() => onChange(moveColumn(all, cols, key, -1))}>
                    ↑
                  </button>
                  <button type="button" className="btn-icon" aria-label={`Move ${key} right`} disabled={!visible} onClick={() => onChange(moveColumn(all, cols, key, 1))}>
                    ↓
                  </button>
                </li>
              );
            })}
          </ul>
          <div className="row gap">
            <button type="button" className="btn btn-sm" onClick={() => onChange(undefined)}>
              Show all, default order
            </button>
          </div>
        </div>
      )}
    </Popover>
  );
}
