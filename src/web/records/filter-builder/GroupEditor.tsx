import { CopyIcon } from "../../ui/icons";
import { ConditionRow, type EditProps, RemoveNodeButton } from "./ConditionRow";
import {
  addChild,
  containsLocked,
  duplicateNode,
  type GroupNode,
  moveNode,
  newCondition,
  newGroup,
  setGroupOp,
} from "./filter-tree.utils";

interface Props extends EditProps {
  group: GroupNode;
  path: string;
  isRoot: boolean;
}

/** The new condition's Field box takes the focus (it stayed on "+ Condition", away from what to fill in). */
function focusCondition(id: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-node="${CSS.escape(id)}"]`)?.focus());
}

export function GroupEditor({ group, path, isRoot, ...p }: Props) {
  const name = isRoot ? "Filter" : `Group ${path}`;
  const firstField = p.fields[0]?.key ?? "";
  const locked = containsLocked(group);
  return (
    // biome-ignore lint/a11y/useSemanticElements: nested groups of controls
    <div className={`fgroup ${isRoot ? "root" : ""} op-${group.op}`} role="group" aria-label={name} data-testid="filter-group">
      <div className="fgroup-head">
        <span className="seg" role="radiogroup" aria-label={`${name}: match`}>
          {(["and", "or"] as const).map((op) => (
            // biome-ignore lint/a11y/useSemanticElements: segmented control
            <button
              key={op}
              type="button"
              role="radio"
              aria-checked={group.op === op}
              className={group.op === op ? "on" : ""}
              // A radio group is one Tab stop; the arrow keys switch, as with native radios.
              tabIndex={group.op === op ? 0 : -1}
              onKeyDown={(e) => {
                if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key)) return;
                e.preventDefault();
                const other = op === "and" ? "or" : "and";
                p.edit((r) => setGroupOp(r, group.id, other));
                (e.currentTarget.parentElement?.querySelector(`[data-op="${other}"]`) as HTMLElement | null)?.focus();
              }}
              data-op={op}
              onClick={() => p.edit((r) => setGroupOp(r, group.id, op))}
              title={op === "and" ? "All conditions must match" : "Any condition may match"}
            >
              {op === "and" ? "AND" : "OR"}
            </button>
          ))}
        </span>
        <span className="muted small">{group.op === "and" ? "all of" : "any of"}</span>
        <span className="fgroup-actions">
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => {
              const c = newCondition(firstField);
              p.edit((r) => addChild(r, group.id, c));
              focusCondition(c.id);
            }}
            aria-label={`${name}: add condition`}
          >
            + Condition
          </button>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => {
              const c = newCondition(firstField);
              p.edit((r) => addChild(r, group.id, newGroup(group.op === "and" ? "or" : "and", [c])));
              focusCondition(c.id);
            }}
            aria-label={`${name}: add group`}
          >
            + Group
          </button>
          {!isRoot && (
            <>
              <button type="button" className="btn-icon" aria-label={`Move ${name} up`} disabled={locked} onClick={() => p.edit((r) => moveNode(r, group.id, "up"))}>
                ↑
              </button>
              <button type="button" className="btn-icon" aria-label={`Move ${name} down`} disabled={locked} onClick={() => p.edit((r) => moveNode(r, group.id, "down"))}>
                ↓
              </button>
              <button type="button" className="btn-icon" aria-label={`Duplicate ${name}`} onClick={() => p.edit((r) => duplicateNode(r, group.id))}>
                <CopyIcon />
              </button>
              <RemoveNodeButton name={name} nodeId={group.id} locked={locked} title={locked ? "Holds a locked condition: unlock it first" : "Remove group"} edit={p.edit} />
            </>
          )}
        </span>
      </div>
      <div className="fgroup-body">
        {group.children.length === 0 && <p className="muted small empty-group">{isRoot
              ? "No conditions: every Record matches."
              : group.op === "and"
                ? "Empty group: it matches every Record. Add a condition or remove it."
                : "Empty group: it matches no Record at all. Add a condition or remove it."}</p>}
        {group.children.map((c, i) =>
          c.kind === "group" ? (
            <GroupEditor key={c.id} group={c} path={isRoot ? `${i + 1}` : `${path}.${i + 1}`} isRoot={false} {...p} />
          ) : (
            <ConditionRow key={c.id} node={c} label={isRoot ? `${i + 1}` : `${path}.${i + 1}`} {...p} />
          ),
        )}
      </div>
    </div>
  );
}
