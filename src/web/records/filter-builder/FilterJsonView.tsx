/**
 * The exact filter that Apply will send, as JSON; edited or pasted JSON goes back into the
 * builder only when it is valid, otherwise a message says what and where to fix. The text being
 * edited lives in the builder (useJsonEdit), so that Apply can take pending JSON too.
 */
import { useState } from "react";
import type { FilterGroup } from "../../../shared/filter";
import type { FieldInfo } from "../../../shared/records";
import { parseFilterText } from "./filter-parse.utils";

export interface JsonEdit {
  text: string | null;
  error: string | null;
  setText(t: string | null): void;
  setError(e: string | null): void;
}

export function useJsonEdit(): JsonEdit {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return { text, error, setText, setError };
}

export const shownJson = (wire: FilterGroup) => JSON.stringify(wire, null, 2);

/** Pending JSON edits that differ from the builder, parsed: undefined when there are none. */
export function takeJson(edit: JsonEdit, wire: FilterGroup, ctx: { fields: readonly FieldInfo[]; operators: readonly string[] }): { ok: true; value: FilterGroup } | { ok: false; message: string } | undefined {
  if (edit.text === null || edit.text === shownJson(wire)) return undefined;
  // An emptied JSON view means no filter (as an empty builder does), not a syntax error.
  if (edit.text.trim() === "") {
    edit.setError(null);
    edit.setText(null);
    return { ok: true, value: { and: [] } };
  }
  const r = parseFilterText(edit.text, { operators: ctx.operators, fields: ctx.fields.length ? ctx.fields : undefined });
  if (!r.ok) {
    edit.setError(r.error.message);
    return { ok: false, message: r.error.message };
  }
  edit.setError(null);
  edit.setText(null);
  return { ok: true, value: r.value };
}

/**
 * Put the eye on the mistake: scroll the JSON box into view, focus it, and put the caret where
 * JSON.parse stopped ("at position 42") when it says so. Done at once, in the handler that found
 * the error (the box is already rendered): a deferred caret move could land after the person has
 * started typing or replacing the text, and would split what they typed.
 */
export function focusJsonError(message: string) {
  const box = document.getElementById("filter-json") as HTMLTextAreaElement | null;
  if (!box) return;
  box.scrollIntoView({ block: "center" });
  box.focus();
  const at = /position (\d+)/.exec(message);
  if (at) box.setSelectionRange(Number(at[1]), Math.min(box.value.length, Number(at[1]) + 1));
}

interface Props {
  wire: FilterGroup;
  fields: readonly FieldInfo[];
  operators: readonly string[];
  edit: JsonEdit;
  onLoad(filter: FilterGroup): void;
}

export function FilterJsonView({ wire, fields, operators, edit, onLoad }: Props) {
  const shown = shownJson(wire);
  const { text, error, setText, setError } = edit;
  const value = text ?? shown;
  const dirty = text !== null && text !== shown;
  const load = () => {
    const r = takeJson(edit, wire, { fields, operators });
    if (r?.ok) onLoad(r.value);
    else if (r) focusJsonError(r.message);
  };
  return (
    <div className="json-view">
      <label className="small muted" htmlFor="filter-json">
        Filter JSON {wire && ("and" in wire ? wire.and.length === 0 : wire.or.length === 0) && "— empty: Apply sends no filter, every Record matches"}
      </label>
      {error && (
        <p id="filter-json-error" className="error-text" role="alert">
          {error}
        </p>
      )}
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
    </div>
  );
}
