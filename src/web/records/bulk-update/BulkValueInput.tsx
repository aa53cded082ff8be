import type { FieldInfo } from "../../../shared/records";
import type { BulkRow } from "./bulk.utils";
import { DateInput } from "../../ui/DateInput";

export function BulkValueInput({ field, row, label, onChange }: { field: FieldInfo | undefined; row: BulkRow; label: string; onChange(p: Partial<BulkRow>): void }) {
  const t = field?.type;
  return (
    <span className="value-input grow">
      {row.isNull ? (
        <span className="null-pill">becomes NULL</span>
      ) : t === "boolean" ? (
        <select className="input" aria-label={label} value={row.text || "true"} onChange={(e) => onChange({ text: e.target.value })}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : t === "date" ? (
        <DateInput className="input grow" aria-label={label} forName={label} value={row.text} onValue={(text) => onChange({ text })} />
      ) : (
        <input
          className="input grow"
          aria-label={label}
          type="text"
          inputMode={t === "number" ? "decimal" : undefined}
          placeholder={t === "datetime" ? "2024-03-01T09:30:00Z" : t === "json" ? '{"key": "value"}' : ""}
          value={row.text}
          onChange={(e) => onChange({ text: e.target.value })}
        />
      )}
      {field?.nullable && (
        <button type="button" className={`btn-chip ${row.isNull ? "on" : ""}`} aria-pressed={row.isNull} aria-label={`${label}: NULL`} onClick={() => onChange({ isNull: !row.isNull })}>
          NULL
        </button>
      )}
    </span>
  );
}
