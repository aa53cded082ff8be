/** A value input that fits the field's type: number, date picker, boolean, text, or NULL. */
import { useEffect, useId, useState } from "react";
import type { FilterValue } from "../../../shared/filter";
import type { FieldType } from "../../../shared/records";
import { SuggestionList } from "./ListValueInput";
import { DateInput } from "../../ui/DateInput";
import { parseNumberText } from "../../../shared/values";

interface Props {
  type: FieldType | undefined;
  value: FilterValue | undefined;
  disabled: boolean;
  allowNull: boolean;
  /** contains / startsWith look for text, whatever the field's type. */
  textSearch?: boolean;
  label: string;
  /** Where value suggestions come from (text Fields only). */
  source?: { db: string; table: string; key: string };
  onChange(v: FilterValue): void;
}

export function ValueInput({ type, value, disabled, allowNull, textSearch, label, source, onChange }: Props) {
  const listId = useId();
  const suggest = !!source && !disabled && type === "text";
  const isNull = value === null;
  const nullToggle = allowNull && (
    <button
      type="button"
      className={`btn-chip ${isNull ? "on" : ""}`}
      aria-pressed={isNull}
      aria-label={`${label}: null`}
      title={isNull ? "Comparing with NULL: click to enter a value instead" : "Compare with NULL (no value)"}
      disabled={disabled}
      onClick={() => onChange(isNull ? (type === "boolean" ? true : "") : null)}
    >
      NULL
    </button>
  );
  if (isNull) {
    return (
      <span className="value-input">
        <span className="null-pill">no value</span>
        {nullToggle}
      </span>
    );
  }
  let input: React.ReactNode;
  switch (textSearch ? "text" : type) {
    case "number":
      input = <NumberInput label={label} disabled={disabled} value={value} onChange={onChange} />;
      break;
    case "boolean":
      input = (
        <select
          className="input"
          aria-label={label}
          disabled={disabled}
          value={String(value === true)}
          onChange={(e) => onChange(e.target.value === "true")}
        >
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
      break;
    case "date":
      input = (
        <DateInput className="input" aria-label={label} forName={label} disabled={disabled} value={typeof value === "string" ? value : ""} onValue={onChange} />
      );
      break;
    default:
      input = (
        <input
          type="text"
          className="input"
          aria-label={label}
          disabled={disabled}
          placeholder={type === "datetime" ? "2024-03-01T09:30:00Z" : "value"}
          list={suggest ? listId : undefined}
          value={value === undefined ? "" : String(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      if (suggest && source) input = (
        <>
          {input}
          <SuggestionList id={listId} source={source} prefix={typeof value === "string" ? value : ""} />
        </>
      );
  }
  return (
    <span className="value-input">
      {input}
      {nullToggle}
    </span>
  );
}

/**
 * A number as the cell editors read it ("42", "-3.5", "2,000,000" as the grid shows it, "1_000"),
 * or an exponent literal ("1e3"); anything else stays text (and is said to be no number).
 */
function parseNumber(t: string): FilterValue {
  const read = parseNumberText(t);
  if (read.ok) return read.value;
  return /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(t) ? Number(t) : t;
}

/**
 * A text box, not type="number": that one reports "" for "4e" or "abc", so the user would see an
 * empty box beside a message about what they typed. It keeps its own text so that "4." or "1e"
 * can be typed on the way to "4.5" or "1e3".
 */
function NumberInput({ label, disabled, value, onChange }: { label: string; disabled: boolean; value: FilterValue | undefined; onChange(v: FilterValue): void }) {
  const [text, setText] = useState(value === undefined ? "" : String(value));
  // A change from outside (loaded JSON, another field chosen) replaces the text.
  useEffect(() => {
    setText((t) => (parseNumber(t) === value ? t : value === undefined ? "" : String(value)));
  }, [value]);
  return (
    <input
      type="text"
      inputMode="decimal"
      className="input input-num"
      aria-label={label}
      disabled={disabled}
      placeholder="number"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parseNumber(e.target.value));
      }}
    />
  );
}
