/** A value input that fits the field's type: number, date picker, boolean, text, or NULL. */
import type { FilterValue } from "../../../shared/filter";
import type { FieldType } from "../../../shared/records";

interface Props {
  type: FieldType | undefined;
  value: FilterValue | undefined;
  disabled: boolean;
  allowNull: boolean;
  label: string;
  onChange(v: FilterValue): void;
}

export function ValueInput({ type, value, disabled, allowNull, label, onChange }: Props) {
  const isNull = value === null;
  const nullToggle = allowNull && (
    <button
      type="button"
      className={`btn-chip ${isNull ? "on" : ""}`}
      aria-pressed={isNull}
      aria-label={`${label}: null`}
      title="Compare with NULL (no value)"
      disabled={disabled}
      onClick={() => onChange(isNull ? (type === "boolean" ? true : "") : null)}
    >
      NULL
    </button>
  );
  if (isNull) {
    return (
      <span className="value-input">
        <span className="null-pill">NULL</span>
        {nullToggle}
      </span>
    );
  }
  let input: React.ReactNode;
  switch (type) {
    case "number":
      input = (
        <input
          type="number"
          step="any"
          className="input input-num"
          aria-label={label}
          disabled={disabled}
          value={value === undefined ? "" : String(value)}
          onChange={(e) => {
            const t = e.target.value;
            const n = Number(t);
            onChange(t.trim() !== "" && Number.isFinite(n) ? n : t);
          }}
        />
      );
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
        <input
          type="date"
          className="input"
          aria-label={label}
          disabled={disabled}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value)}
        />
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
          value={value === undefined ? "" : String(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <span className="value-input">
      {input}
      {nullToggle}
    </span>
  );
}
