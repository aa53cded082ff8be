/**
 * The inline editor: type-aware input, a NULL button for nullable fields, Enter/Tab to save,
 * Escape to cancel. A value of the wrong type is refused here, with the reason, never sent.
 */
import { useEffect, useRef, useState } from "react";
import type { RecordValue } from "../../../shared/records";
import type { GridColumn } from "./columns.utils";
import { DateInput } from "../../ui/DateInput";
import { editText, parseInput, sameValue } from "../values/values.utils";

export type Move = "down" | "right" | "left" | "none";

/** The widest a cell's error message gets (grid.css `.cell-error`). */
const CELL_ERROR_WIDTH = 360;

/**
 * What the editor starts with. A key typed on the cell replaces the value, as in a spreadsheet,
 * except where one character cannot be shown: a true/false menu takes t/y/1 or f/n/0 (anything
 * else keeps the current value). A date is typed as text, YYYY-MM-DD (ui/DateInput.tsx).
 */
function startText(col: GridColumn, value: RecordValue | undefined, typed: string | undefined): string {
  const current = editText(col.field, value);
  if (typed === undefined) return current;
  if (col.field.type === "boolean") return /^[ty1]$/i.test(typed) ? "true" : /^[fn0]$/i.test(typed) ? "false" : current;
  return typed;
}

interface Props {
  col: GridColumn;
  value: RecordValue | undefined;
  initialText?: string;
  /** `base`: the value the edit started from, the conflict check's "before" (a live change
   * arriving while the person types must be a conflict, not overwritten). */
  onCommit(value: RecordValue, move: Move, base: RecordValue | undefined): void;
  onCancel(): void;
  /**
   * What is typed so far (parsed; undefined when unchanged or not valid), kept if the tab must
   * leave, and the text itself (undefined once the editor has closed).
   */
  onDraft?(value: RecordValue | undefined, base: RecordValue | undefined, text?: string): void;
  /**
   * What this person typed that a conflict kept from being saved (someone changed the cell
   * first): the editor opens with it, over `value` (theirs, the base), so Enter saves it over
   * theirs on purpose and Esc keeps theirs (review 38b #1: it opened with theirs, and the typed
   * text was only in a tooltip). `by`: who changed it, when known.
   */
  mine?: { value: RecordValue; by?: string };
}

export function CellEditor({ col, value, initialText, onCommit, onCancel, onDraft, mine }: Props) {
  const [text, setText] = useState(() => startText(col, mine && initialText === undefined ? mine.value : value, initialText));
  const [base] = useState(value);
  const [error, setErrorText] = useState<string | null>(null);
  // Near the window's right edge (the last columns) the message opens leftwards, not out of sight.
  const [errorAtEnd, setErrorAtEnd] = useState(false);
  const setError = (text: string | null) => {
    if (text) setErrorAtEnd((box.current?.getBoundingClientRect().left ?? 0) + CELL_ERROR_WIDTH > window.innerWidth);
    setErrorText(text);
  };
  const ref = useRef<HTMLInputElement & HTMLSelectElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const done = useRef(false);
  useEffect(() => {
    // The whole editor in sight (at 200% zoom a cell at the right edge was half out of view, and
    // its error message with it); the grid scrolls, not the page.
    box.current?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
    ref.current?.focus();
    const el: HTMLElement | null = ref.current;
    // Enter, F2 or a double-click edits the value: the caret after it, as in a spreadsheet
    // (select-all made the first key typed replace it). A typed key already replaced it.
    if (initialText === undefined && el instanceof HTMLInputElement && el.type === "text") el.setSelectionRange(el.value.length, el.value.length);
  }, [initialText]);

  // The note on a value kept from a conflict opens leftwards near the right edge, as an error does.
  const keptMine = mine !== undefined;
  useEffect(() => {
    if (keptMine) setErrorAtEnd((box.current?.getBoundingClientRect().left ?? 0) + CELL_ERROR_WIDTH > window.innerWidth);
  }, [keptMine]);

  // The draft is reported when the text changes, and cleared once the editor closes; the row
  // hands a new callback on every render, so it is read from a ref rather than re-run on each.
  const draft = useRef(onDraft);
  draft.current = onDraft;
  useEffect(() => {
    const parsed = parseInput(col.field, text);
    draft.current?.(parsed.ok && !sameValue(parsed.value, base) ? parsed.value : undefined, base, text);
  }, [text, col.field, base]);
  useEffect(() => () => draft.current?.(undefined, undefined), []);
  const commit = (move: Move, raw = text) => {
    const parsed = col.field.type === "boolean" && raw === "null" ? { ok: true as const, value: null } : parseInput(col.field, raw);
    if (!parsed.ok) {
      setError(parsed.error.message);
      ref.current?.focus();
      return;
    }
    done.current = true;
    onCommit(parsed.value, move, base);
  };
  const setNull = () => {
    done.current = true;
    onCommit(null, "none", base);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    e.stopPropagation();
    if (e.key === "Enter") {
      e.preventDefault();
      commit("down");
    } else if (e.key === "Tab") {
      e.preventDefault();
      commit(e.shiftKey ? "left" : "right");
    } else if (e.key === "Escape") {
      e.preventDefault();
      done.current = true;
      onCancel();
    }
  };
  const label = `Edit ${col.key}`;
  const common = {
    ref,
    "aria-label": label,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? "cell-editor-error" : mine ? "cell-editor-mine" : undefined,
    onKeyDown,
    onBlur: () => {
      if (!done.current) commit("none");
    },
  };
  const t = col.field.type;
  return (
    <div ref={box} className={`cell-editor ${t === "date" || t === "datetime" || t === "json" ? `grow grow-${t}` : ""}`}>
      {t === "boolean" ? (
        <select {...common} className="input" value={text === "" ? "null" : text} onChange={(e) => setText(e.target.value)}>
          <option value="true">true</option>
          <option value="false">false</option>
          {col.field.nullable && <option value="null">NULL</option>}
        </select>
      ) : t === "date" ? (
        <DateInput
          {...common}
          className="input"
          value={text}
          onValue={(v) => {
            setText(v);
            setError(null);
          }}
        />
      ) : (
        <input
          {...common}
          className={`input ${t === "number" ? "num" : ""}`}
          type="text"
          inputMode={t === "number" ? "decimal" : undefined}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
        />
      )}
      {col.field.nullable && t !== "boolean" && (
        <button type="button" className="btn-chip" title="Set to NULL" aria-label={`Set ${col.key} to NULL`} onMouseDown={(e) => e.preventDefault()} onClick={setNull}>
          NULL
        </button>
      )}
      {mine && !error && (
        <div id="cell-editor-mine" className={`cell-error cell-mine ${errorAtEnd ? "cell-error-end" : ""}`} role="status">
          Your value, not saved: changed elsewhere{mine.by ?? ""} to {editText(col.field, value) || "(empty)"}. Enter saves yours over it; Esc keeps it.
        </div>
      )}
      {error && (
        <div id="cell-editor-error" className={`cell-error ${errorAtEnd ? "cell-error-end" : ""}`} role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
