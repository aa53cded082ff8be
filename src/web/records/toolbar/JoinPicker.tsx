/** An optional join to another table of the same database; joined columns are read-only. */
import { useState } from "react";
import type { FieldInfo, JoinUnit } from "../../../shared/records";
import { Popover } from "./Popover";
import { guessJoinKeys, joinableTargets, possessive } from "./join-form.utils";

interface Props {
  tables: string[];
  baseFields: readonly FieldInfo[];
  join: JoinUnit | undefined;
  targetFields(table: string): FieldInfo[] | undefined;
  /** From the config: known even where the upstream cannot list a table's fields. */
  primaryKeyOf(table: string): string | undefined;
  onChange(join: JoinUnit | undefined): void;
}

export function JoinPicker({ tables, baseFields, join, targetFields, primaryKeyOf, onChange }: Props) {
  return (
    <Popover label="Join" badge={join ? <span className="badge">{join.targetTable}</span> : null}>
      {(close) => <JoinForm {...{ tables, baseFields, join, targetFields, primaryKeyOf }} onChange={(j) => (onChange(j), close())} />}
    </Popover>
  );
}

function JoinForm({ tables, baseFields, join, targetFields, primaryKeyOf, onChange }: Props) {
  const [target, setTarget] = useState(join?.targetTable ?? tables[0] ?? "");
  const tFields = targetFields(target);
  const [tableKey, setTableKey] = useState(join?.rules[0]?.tableKey ?? "");
  // null: not chosen yet, so the guess applies; "" is a field name being typed.
  const [targetKey, setTargetKey] = useState<string | null>(join?.rules[0]?.targetTableKey ?? null);
  const [problem, setProblem] = useState<string | null>(null);
  const guess = guessJoinKeys({ baseFields, targetFields: tFields, targetPk: primaryKeyOf(target), chosenBase: tableKey });
  const tk = guess.tableKey;
  const joinable = tFields && joinableTargets(baseFields.find((f) => f.key === tk), tFields);
  // A choice the base Field's type no longer allows falls back to the guess.
  const tgk = targetKey !== null && (!joinable || joinable.some((f) => f.key === targetKey)) ? targetKey : guess.targetKey;
  const baseType = baseFields.find((f) => f.key === tk)?.type;
  if (!tables.length) return <p className="muted small">No other table in this database to join.</p>;
  return (
    <form
      className="join-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (joinable && !joinable.length) return setProblem(`No Field of ${target} is of a type that can equal ${tk} (${baseType}): choose another Field of this table.`);
        if (!tgk.trim()) return setProblem(`Name the field of ${target} that should equal ${tk}.`);
        if (target && tk) onChange({ targetTable: target, rules: [{ tableKey: tk, targetTableKey: tgk.trim() }] });
      }}
    >
      <label>
        Table
        <select className="input" value={target} onChange={(e) => (setTarget(e.target.value), setTargetKey(null), setProblem(null))}>
          {tables.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        where this table’s
        <select className="input" value={tk} onChange={(e) => (setTableKey(e.target.value), setTargetKey(null))}>
          {baseFields.map((f) => (
            <option key={f.key}>{f.key}</option>
          ))}
        </select>
      </label>
      <label>
        equals {possessive(target)}
        {tFields ? (
          // Only Fields of a type that can equal this table's Field (the service refuses others).
          <select className="input" value={tgk} onChange={(e) => setTargetKey(e.target.value)} disabled={!joinable?.length}>
            {joinable?.map((f) => (
              <option key={f.key}>{f.key}</option>
            ))}
          </select>
        ) : (
          <input
            className="input"
            value={tgk}
            onChange={(e) => (setTargetKey(e.target.value), setProblem(null))}
            aria-label="Target field"
            aria-invalid={problem ? true : undefined}
            placeholder="field name"
          />
        )}
      </label>
      {problem && (
        <p className="error-text small" role="alert">
          {problem}
        </p>
      )}
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
