/**
 * One Field in the record panel: a type-aware editor (text, number, true/false, date, date and
 * time, JSON, image and attachment keys with a preview), or the value read-only.
 */
import { formatDateTime } from "../../ui/dates";
import type { RecordValue } from "../../../shared/records";
import { PaperclipIcon } from "../../ui/icons";
import type { GridColumn } from "../grid/columns.utils";
import { ExpandIcon } from "../../ui/icons";
import { formatValue, objectUrl, thumbnailUrl } from "../values/values.utils";
import { isLong } from "./field-editor.utils";
import { DateInput } from "../../ui/DateInput";

interface Props {
  col: GridColumn;
  value: RecordValue | undefined;
  /** The unsaved text, or undefined when untouched. */
  draft: string | null | undefined;
  text: string;
  error?: string;
  conflict?: string;
  onChange(text: string | null): void;
  onLarge(): void;
}

export function FieldEditor({ col, value, draft, text, error, conflict, onChange, onLarge }: Props) {
  const f = col.field;
  const id = `rp-${col.key.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const dirty = draft !== undefined;
  const isNull = draft === null || (!dirty && value === null);
  const common = {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error || conflict ? `${id}-msg` : undefined,
  };
  let input: React.ReactNode;
  if (col.readOnly) {
    input = (
      <div className="rp-readonly" id={id}>
        {value === null || value === undefined ? <span className="v-null">NULL</span> : formatValue(f.type, value)}
        {draft !== undefined && (
          // Typed before the Field became read-only (a role changed meanwhile): shown to copy.
          <span className="rp-kept">
            Typed, not saved: <span className="rp-kept-text">{draft === null ? "NULL" : draft}</span>
          </span>
        )}
      </div>
    );
  } else if (f.type === "boolean") {
    input = (
      <select {...common} className="input" value={isNull ? "null" : text} onChange={(e) => onChange(e.target.value === "null" ? null : e.target.value)}>
        <option value="true">true</option>
        <option value="false">false</option>
        {f.nullable && <option value="null">NULL</option>}
      </select>
    );
  } else if (isLong(f, value)) {
    input = (
      <div className="rp-long">
        <textarea {...common} className={`input ${f.type === "json" ? "mono" : ""}`} rows={f.type === "json" ? 5 : 3} value={isNull ? "" : text} placeholder={isNull ? "NULL" : undefined} onChange={(e) => onChange(e.target.value)} />
        <button type="button" className="btn-icon" aria-label={`Open ${col.key} in the large editor`} title="Large editor" onClick={onLarge}>
          <ExpandIcon />
        </button>
      </div>
    );
  } else if (f.type === "date") {
    input = <DateInput {...common} forName={col.key} className="input" value={isNull ? "" : text} placeholder={isNull ? "NULL" : undefined} onValue={(v) => onChange(v)} />;
  } else {
    input = (
      <input
        {...common}
        className={`input ${f.type === "number" ? "num" : ""}`}
        type="text"
        inputMode={f.type === "number" ? "decimal" : undefined}
        value={isNull ? "" : text}
        placeholder={isNull ? "NULL" : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  const key = typeof value === "string" && value ? value : undefined;
  return (
    <div className={`rp-field ${dirty ? "dirty" : ""} ${error || conflict ? "bad" : ""}`}>
      {/* The NULL chip beside the label, not in it: inside, its name became part of the box's
          ("full_name text Set full_name to NULL"). */}
      <div className="rp-label">
        <label htmlFor={id} className="rp-label-text">
          <span className="rp-name">{col.key}</span>
          <span className="rp-type">
            {f.primaryKey ? "primary key" : f.type}
            {col.joined ? " · joined, read-only" : ""}
          </span>
        </label>
        {!col.readOnly && f.nullable && f.type !== "boolean" && (
          <button
            type="button"
            className="btn-chip"
            aria-label={`Set ${col.key} to NULL`}
            onClick={() => {
              onChange(null);
              // The chip is disabled once the Field is NULL: the focus goes to the Field (it fell to the page).
              requestAnimationFrame(() => document.getElementById(id)?.focus());
            }}
            disabled={isNull}
          >
            NULL
          </button>
        )}
      </div>
      {input}
      {/* Edited as ISO text, shown also in the app's one date format (as in the grid). */}
      {f.type === "datetime" && !isNull && text && !Number.isNaN(Date.parse(text)) && (
        <span className="rp-hint muted small" data-testid={`rp-when-${col.key}`}>
          {formatDateTime(text)}
        </span>
      )}
      {f.type === "image" && key && f.bucket && (
        <img className="rp-image" src={thumbnailUrl(f.bucket, key, 320, 200, window.devicePixelRatio)} alt={key} />
      )}
      {f.type === "attachment" && key && f.bucket && (
        <a className="v-link" href={objectUrl(f.bucket, key)} target="_blank" rel="noopener noreferrer">
          <PaperclipIcon /> {key.split("/").pop()}
        </a>
      )}
      {(error || conflict) && (
        <p id={`${id}-msg`} className="error-text" role="alert">
          {error ?? conflict}
        </p>
      )}
    </div>
  );
}
