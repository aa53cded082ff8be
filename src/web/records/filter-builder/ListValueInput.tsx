/**
 * The value of "is any of": a list of chips. Type a value and press Enter (or a comma) to add it,
 * Backspace in the empty box removes the last one, each chip has its own remove button.
 * A number Field turns typed numbers into numbers, as the single-value input does.
 */
import { useEffect, useId, useState } from "react";
import { create } from "zustand";
import type { FilterValue } from "../../../shared/filter";
import type { FieldType } from "../../../shared/records";
import { useValueSuggestions } from "./value-suggestions-query";
import "./value-list.css";

/**
 * Text typed in an "is any of" box and not yet a chip, by condition id: the builder counts it as
 * a value (no "add a value" error while it is typed, Apply enabled), and it becomes a chip when
 * the box loses focus (as it does when Apply is pressed) or on Enter.
 */
export const useTypedAnyOf = create<Record<string, string>>(() => ({}));

interface Props {
  /** The condition's id (for useTypedAnyOf). */
  id: string;
  type: FieldType | undefined;
  value: FilterValue[];
  disabled: boolean;
  label: string;
  source: { db: string; table: string; key: string };
  onChange(v: FilterValue[]): void;
}

const toValue = (type: FieldType | undefined, t: string): FilterValue =>
  type === "number" && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(t) ? Number(t) : t;

export function ListValueInput({ id, type, value, disabled, label, source, onChange }: Props) {
  const [text, setText] = useState("");
  useEffect(() => {
    useTypedAnyOf.setState({ [id]: text });
  }, [id, text]);
  useEffect(
    () => () => {
      const { [id]: _gone, ...rest } = useTypedAnyOf.getState();
      useTypedAnyOf.setState(rest, true);
    },
    [id],
  );
  const listId = useId();
  const suggestions = useValueSuggestions(source.db, source.table, source.key, text.trim(), !disabled && (type === "text" || type === undefined));
  const add = (raw: string) => {
    const t = raw.trim();
    if (!t) return;
    const v = toValue(type, t);
    if (!value.some((x) => x === v)) onChange([...value, v]);
    setText("");
  };
  return (
    <span className="value-input value-list" data-testid="any-of">
      {value.map((v, i) => (
        <span key={`${String(v)}-${i}`} className="chip">
          {v === null ? "NULL" : String(v)}
          <button
            type="button"
            className="chip-x"
            aria-label={`Remove ${String(v)} from ${label}`}
            disabled={disabled}
            onClick={() => onChange(value.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </span>
      ))}
      <input
        type="text"
        className="input"
        aria-label={`${label}: add a value`}
        placeholder={value.length ? "add another…" : "type a value, Enter"}
        list={suggestions.length ? listId : undefined}
        disabled={disabled}
        value={text}
        onChange={(e) => {
          const t = e.target.value;
          // Picking a suggestion from the list fills the box with exactly that value: take it.
          if (suggestions.some((s) => String(s) === t) && t.length - text.length > 1) add(t);
          else setText(t);
        }}
        onKeyDown={(e) => {
          // Apply (Ctrl/⌘+Enter, handled by the builder) takes the value still in the box too.
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) add(text);
          else if (e.key === "Enter" || e.key === ",") {
            if (!text.trim()) return;
            e.preventDefault();
            e.stopPropagation();
            add(text);
          } else if (e.key === "Backspace" && text === "" && value.length) {
            onChange(value.slice(0, -1));
          }
        }}
        onBlur={() => add(text)}
      />
      {suggestions.length > 0 && (
        <datalist id={listId}>
          {suggestions.map((s) => (
            <option key={String(s)} value={String(s)} />
          ))}
        </datalist>
      )}
    </span>
  );
}

/** Suggestions for the one-value text box (equals, starts with…): a datalist beside it. */
export function SuggestionList({ id, source, prefix }: { id: string; source: { db: string; table: string; key: string }; prefix: string }) {
  const suggestions = useValueSuggestions(source.db, source.table, source.key, prefix, true);
  if (!suggestions.length) return null;
  return (
    <datalist id={id}>
      {suggestions.map((s) => (
        <option key={String(s)} value={String(s)} />
      ))}
    </datalist>
  );
}
