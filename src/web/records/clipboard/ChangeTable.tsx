/** The preview of a paste or an import: Record, Field, old → new, and why a cell cannot be written. */
import { memo } from "react";
import type { RecordValue } from "../../../shared/records";
import { formatValue } from "../values/values.utils";
import type { CellChange } from "./paste.utils";

const SHOWN = 1000;

function show(type: CellChange["field"]["type"], v: RecordValue | undefined) {
  if (v === undefined) return <span className="muted">—</span>;
  if (v === null) return <span className="v-null">NULL</span>;
  if (v === "") return <span className="v-empty">empty</span>;
  return formatValue(type, v);
}

// Memoized: the dialog re-renders on every progress tick while the updates go out, and a
// 500-change table reconciled 100 times costs more than the updates' own wait.
export const ChangeTable = memo(function ChangeTable({ changes, isNew }: { changes: readonly CellChange[]; isNew?(pk: RecordValue): boolean }) {
  return (
    // It scrolls: reachable and scrollable from the keyboard (axe: scrollable-region-focusable).
    <div className="change-table-wrap" tabIndex={0} role="region" aria-label="Changes to review">
      <table className="change-table">
        {/* Fixed layout: column widths come from here, not from measuring every row first. */}
        <colgroup>
          <col style={{ width: "16%" }} />
          <col style={{ width: "18%" }} />
          <col style={{ width: "30%" }} />
          <col style={{ width: "36%" }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Record</th>
            <th scope="col">Field</th>
            <th scope="col">Now</th>
            <th scope="col">New</th>
          </tr>
        </thead>
        <tbody>
          {changes.slice(0, SHOWN).map((c) => (
            <tr key={`${JSON.stringify(c.pk)}|${c.field.key}`} className={c.error ? "bad" : undefined}>
              <td className="mono">{String(c.pk)}</td>
              <td>{c.field.key}</td>
              <td>{isNew?.(c.pk) ? <span className="muted">new Record</span> : show(c.field.type, c.before)}</td>
              <td>
                {c.error ? (
                  <span className="error-text">
                    “{c.text}”: {c.error}
                  </span>
                ) : (
                  show(c.field.type, c.after)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {changes.length > SHOWN && <p className="muted small">…and {changes.length - SHOWN} more.</p>}
    </div>
  );
});
