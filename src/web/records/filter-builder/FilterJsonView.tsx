/**
 * The exact filter that Apply will send, as JSON; edited or pasted JSON goes back into the
 * builder only when it is valid, otherwise a message says what and where to fix.
 */
import { useState } from "react";
import type { FilterGroup } from "../../../shared/filter";
import type { FieldInfo } from "../../../shared/records";
import { parseFilterText } from "./filter-parse.utils";

interface Props {
  wire: FilterGroup;
  fields: readonly FieldInfo[];
  operators: readonly string[];
  onLoad(filter: FilterGroup): void;
}

export function FilterJsonView({ wire, fields, operators, onLoad }: Props) {
  const shown = JSON.stringify(wire, null, 2);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value = text ?? shown;
  const dirty = text !== null && text !== shown;
  const load = () => {
    const r = parseFilterText(value, { operators, fields: fields.length ? fields : undefined });
    if (!r.ok) {
      setError(r.error.message);
      return;
    }
    setError(null);
    setText(null);
    onLoad(r.value);
  };
  return (
    <div className="json-view">
      <label className="small muted" htmlFor="filter-json">
        Filter JSON {wire && ("and" in wire ? wire.and.length === 0 : wire.or.length === 0) && "— empty: Apply sends no filter, every Record matches"}
      </label>
      <textarea
        id="filter-json"
        className="input mono"
        spellCheck={false}
        rows={Math.min(18, Math.max(4, value.split("\n").length))}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "filter-json-error" : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && dirty) {
            e.preventDefault();
            e.stopPropagation();
            load();
          }
        }}
      />
      <div className="row gap">
        <button type="button" className="btn btn-sm" disabled={!dirty} onClick={load}>
          Load JSON into builder
        </button>
        {dirty && (
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => (setText(null), setError(null))}>
            Discard JSON edits
          </button>
        )}
      </div>
      {error && (
        <p id="filter-json-error" className="error-text" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
