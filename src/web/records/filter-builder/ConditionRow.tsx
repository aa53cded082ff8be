import type { FieldInfo } from "../../../shared/records";
import { refocusAfterRemoval } from "./focus-builder";
import { type CondNode, type GroupNode, duplicateNode, moveNode, removeNode, updateCondition, valuelessOperators } from "./filter-tree.utils";
import { operatorLabels, operatorsFor } from "./operators.utils";
import { ValueInput } from "./ValueInput";
import { ListValueInput } from "./ListValueInput";
import type { FilterValue } from "../../../shared/filter";
import { CopyIcon, LockIcon } from "../../ui/icons";

export interface EditProps {
  /** The table being filtered: where value suggestions come from. */
  db: string;
  table: string;
  fields: readonly FieldInfo[];
  operators: readonly string[];
  problems: Map<string, string>;
  edit(fn: (root: GroupNode) => GroupNode): void;
}

/** The × of a condition or a group: out of the tree, and the focus kept in the builder. */
export function RemoveNodeButton({ name, nodeId, locked, title, edit }: { name: string; nodeId: CondNode["id"]; locked: boolean; title: string; edit: EditProps["edit"] }) {
  return (
    <button
      type="button"
      className="btn-icon danger"
      aria-label={`Remove ${name}`}
      title={title}
      disabled={locked}
      onClick={() => {
        edit((r) => removeNode(r, nodeId));
        refocusAfterRemoval();
      }}
    >
      ×
    </button>
  );
}

export function ConditionRow({ node, label, ...p }: EditProps & { node: CondNode; label: string }) {
  const field = p.fields.find((f) => f.key === node.key);
  const ops = operatorsFor(field?.type, p.operators);
  const locked = node.isFixed;
  const problem = p.problems.get(node.id);
  const name = `Condition ${label}`;
  const set = (patch: Partial<CondNode>) => p.edit((r) => updateCondition(r, node.id, patch));
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of controls, not a form fieldset
    <div className={`cond ${locked ? "locked" : ""} ${problem ? "invalid" : ""}`} role="group" aria-label={name} data-testid="condition">
      <select
        className="input input-field"
        data-node={node.id}
        aria-label={`${name} field`}
        value={node.key}
        disabled={locked}
        onChange={(e) => {
          const f = p.fields.find((x) => x.key === e.target.value);
          const nextOps = operatorsFor(f?.type, p.operators);
          set({
            key: e.target.value,
            operator: nextOps.includes(node.operator) ? node.operator : nextOps[0],
            value: f?.type === "boolean" ? true : f?.type === "number" ? "" : "",
          });
        }}
      >
        {!field && <option value={node.key}>{node.key || "Choose a field…"}</option>}
        {p.fields.map((f) => (
          <option key={f.key} value={f.key}>
            {f.key}
          </option>
        ))}
      </select>
      <select
        className="input input-op"
        aria-label={`${name} operator`}
        value={node.operator}
        disabled={locked}
        onChange={(e) => {
          const operator = e.target.value;
          const v = node.value;
          // Keep what was typed across the switch: one value becomes the list's first, and back.
          if (operator === "anyOf") set({ operator, value: Array.isArray(v) ? v : v === undefined || v === "" ? [] : [v] });
          else set({ operator, value: Array.isArray(v) ? (v[0] ?? "") : v });
        }}
      >
        {!ops.includes(node.operator) && <option value={node.operator}>{node.operator}</option>}
        {ops.map((o) => (
          <option key={o} value={o}>
            {operatorLabels[o] ?? o}
          </option>
        ))}
      </select>
      {node.operator === "anyOf" ? (
        <ListValueInput
          id={node.id}
          type={field?.type}
          value={Array.isArray(node.value) ? node.value : []}
          disabled={locked}
          label={`${name} values`}
          source={{ db: p.db, table: p.table, key: node.key }}
          onChange={(value: FilterValue[]) => set({ value })}
        />
      ) : !valuelessOperators.has(node.operator) && (
        <ValueInput
          type={field?.type}
          value={Array.isArray(node.value) ? node.value[0] : node.value}
          disabled={locked}
          source={{ db: p.db, table: p.table, key: node.key }}
          allowNull={node.operator === "equal" || node.operator === "notEqual"}
          textSearch={["contains", "notContains", "startsWith"].includes(node.operator)}
          label={`${name} value`}
          onChange={(value) => set({ value })}
        />
      )}
      <span className="cond-actions">
        <button
          type="button"
          className={`btn-icon lock ${locked ? "on" : ""}`}
          aria-label={locked ? `Unlock ${name}` : `Lock ${name}`}
          title={locked ? "Locked (isFixed): click to unlock before editing" : "Lock (isFixed): protect from edits and removal"}
          onClick={() => set({ isFixed: !locked })}
        >
          <LockIcon open={!locked} />
        </button>
        <button type="button" className="btn-icon" aria-label={`Move ${name} up`} title="Move up" disabled={locked} onClick={() => p.edit((r) => moveNode(r, node.id, "up"))}>
          ↑
        </button>
        <button type="button" className="btn-icon" aria-label={`Move ${name} down`} title="Move down" disabled={locked} onClick={() => p.edit((r) => moveNode(r, node.id, "down"))}>
          ↓
        </button>
        <button type="button" className="btn-icon" aria-label={`Duplicate ${name}`} title="Duplicate" onClick={() => p.edit((r) => duplicateNode(r, node.id))}>
          <CopyIcon />
        </button>
        <RemoveNodeButton name={name} nodeId={node.id} locked={locked} title={locked ? "Unlock to remove" : "Remove"} edit={p.edit} />
      </span>
      {problem && (
        <span className="cond-problem" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
