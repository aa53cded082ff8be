/** Show, hide and reorder columns; the result is the URL's `cols`, sent as `select`. */
import { type GridColumn, moveColumn, toggleColumn } from "../grid/columns.utils";
import { useState } from "react";
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
  const visible = order.filter((k) => shown.has(k) && all.some((c) => c.key === k));
  // What a move did, said (review 53b #10: nothing was announced, and a move past the end did nothing unsaid).
  const [said, setSaid] = useState("");
  const move = (key: string, by: -1 | 1) => {
    const at = visible.indexOf(key) + by;
    if (at < 0 || at >= visible.length) return;
    onChange(moveColumn(all, cols, key, by));
    setSaid(`${key} is column ${at + 1} of ${visible.length}.`);
  };
  return (
    <Popover label="Columns" badge={hidden > 0 ? <span className="badge">{hidden} hidden</span> : null}>
      {() => (
        <div className="col-chooser">
          <ul aria-label="Columns">
            {order.map((key) => {
              const col = all.find((c) => c.key === key);
              if (!col) return null;
              const isShown = shown.has(key);
              return (
                <li key={key} className={isShown ? "" : "muted"}>
                  <label className="row gap-sm grow">
                    <input
                      type="checkbox"
                      checked={isShown}
                      aria-label={`Show ${key}`}
                      onChange={() => {
                        const next = toggleColumn(all, cols, key);
                        onChange(next.length ? next : [key]);
                      }}
                    />
                    <span className={col.joined ? "joined-name" : ""}>{key}</span>
                    <span className="th-type">{col.field.type}</span>
                  </label>
                  {/* aria-disabled at either end: the button pressed keeps the focus. */}
                  <button type="button" className="btn-icon" aria-label={`Move ${key} left`} title="Move left (up this list)" disabled={!isShown} aria-disabled={(isShown && visible[0] === key) || undefined} onClick={() => move(key, -1)}>
                    ↑
                  </button>
                  <button type="button" className="btn-icon" aria-label={`Move ${key} right`} title="Move right (down this list)" disabled={!isShown} aria-disabled={(isShown && visible[visible.length - 1] === key) || undefined} onClick={() => move(key, 1)}>
                    ↓
                  </button>
                </li>
              );
            })}
          </ul>
          <p className="sr-only" role="status">
            {said}
          </p>
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
