/** An optional join to another table of the same database; joined columns are read-only. */
import { useState } from "react";
import type { FieldInfo, JoinUnit } from "../../../shared/records";
import { Popover } from "./Popover";

interface Props {
  tables: string[];
  baseFields: readonly FieldInfo[];
  join: JoinUnit | undefined;
  targetFields(table: string): FieldInfo[] | undefined;
  onChange(join: JoinUnit | undefined): void;
}

export function JoinPicker({ tables, baseFields, join, targetFields, onChange }: Props) {
  return (
    <Popover label="Join" badge={join ? <span className="badge">{join.targetTable}</span> : null}>
      {(close) => <JoinForm {...{ tables, baseFields, join, targetFields }} onChange={(j) => (onChange(j), close())} />}
    </Popover>
  );
}

function JoinForm({ tables, baseFields, join, targetFields, onChange }: Props) {
  const [target, setTarget] = useState(join?.targetTable ?? tables[0] ?? "");
  const tFields = targetFields(target);
  const guess = baseFields.find((f) => tFields?.some((t) => t.key === f.key))?.key ?? baseFields[0]?.key ?? "";
  const [tableKey, setTableKey] = useState(join?.rules[0]?.tableKey ?? "");
  const [targetKey, setTargetKey] = useState(join?.rules[0]?.targetTableKey ?? "");
  const tk = tableKey || guess;
  const tgk = targetKey || (tFields?.some((t) => t.key === tk) ? tk : (tFields?.[0]?.key ?? ""));
  if (!tables.length) return <p className="muted small">No other table in this database to join.</p>;
  return (
    <form
      className="join-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (target && tk && tgk) onChange({ targetTable: target, rules: [{ tableKey: tk, targetTableKey: tgk }] });
      }}
    >
      <label>
        Table
        <select className="input" value={target} onChange={(e) => (setTarget(e.target.value), setTargetKey(""))}>
          {tables.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        where this table's
        <select className="input" value={tk} onChange={(e) => setTableKey(e.target.value)}>
          {baseFields.map((f) => (
            <option key={f.key}>{f.key}</option>
          ))}
        </select>
      </label>
      <label>
        equals {target}'s
        {tFields ? (
          <select className="input" value={tgk} onChange={(e) => setTargetKey(e.target.value)}>
            {tFields.map((f) => (
              <option key={f.key}>{f.key}</option>
            ))}
          </select>
        ) : (
          <input className="input" value={targetKey} onChange={(e) => setTargetKey(e.target.value)} aria-label="Target field" />
        )}
      </label>
      <div className="row gap">
        <button type="submit" className="btn btn-primary btn-sm">
          Apply join
        </button>
        {join && (
          <button type="button" className="btn btn-sm" onClick={() => onChange(undefined)}>
            Remove join
          </button>
        )}
      </div>
    </form>
  );
}
