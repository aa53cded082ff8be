/**
 * The visual filter builder: a draft tree edited freely, Apply puts it in the URL (and so in the
 * query). Shows how many Records the applied filter matches, and the draft's count as you go.
 */
import { useQuery } from "@tanstack/react-query";
import { memo, useEffect, useMemo, useRef, useState } from "react";
import type { FilterGroup } from "../../../shared/filter";
import type { FieldInfo } from "../../../shared/records";
import { countQueryOptions } from "../records-count-query";
import { useDraftStore, setDraft } from "./draft-store";
import { draftProblems } from "./filter-parse.utils";
import { countConditions, fromWire, type GroupNode, toWire, type WireOptions } from "./filter-tree.utils";
import { FilterJsonView, focusJsonError, takeJson, useJsonEdit } from "./FilterJsonView";
import { GroupEditor } from "./GroupEditor";
import { useTypedAnyOf } from "./ListValueInput";
import { fmtInt } from "../values/values.utils";

/** The filter a tree sends: none when it is empty. */
function toWireOrUndefined(root: GroupNode, opts: WireOptions): FilterGroup | undefined {
  return countConditions(root) === 0 && root.children.length === 0 ? undefined : toWire(root, opts);
}

interface Props {
  db: string;
  table: string;
  fields: readonly FieldInfo[];
  operators: readonly string[];
  /** The upstream reads the anyOf operator (capabilities.anyOf). */
  anyOf: boolean;
  applied: FilterGroup | undefined;
  appliedCount: number | undefined;
  onApply(filter: FilterGroup | undefined): void;
}


/** Memoized: new rows arriving for the grid do not re-render the builder (props are stable). */
export const FilterBuilder = memo(function FilterBuilder({ db, table, fields, operators, anyOf, applied, appliedCount, onApply }: Props) {
  const tableKey = `${db}/${table}`;
  const base = JSON.stringify(applied ?? null);
  const stored = useDraftStore((s) => s.drafts[tableKey]);
  // A draft that is what the URL now applies (just applied) is kept as it is: rebuilding it from
  // the URL would give its nodes new ids and re-mount every condition row.
  const root = useMemo(
    () => (stored && (stored.base === base || JSON.stringify(toWireOrUndefined(stored.root, { anyOf }) ?? null) === base) ? stored.root : fromWire(applied)),
    [stored, base, applied, anyOf],
  );
  const edit = (fn: (r: GroupNode) => GroupNode) => setDraft(tableKey, fn(root), base);
  const [showJson, setShowJson] = useState(false);
  const json = useJsonEdit();

  const wire = useMemo(() => toWire(root, { anyOf }), [root, anyOf]);
  const typed = useTypedAnyOf();
  const problems = useMemo(() => draftProblems(root, fields, typed), [root, fields, typed]);
  const empty = countConditions(root) === 0 && root.children.length === 0;
  const toSend = empty ? undefined : wire;
  // A value still typed in an "is any of" box is a change too (it becomes a chip as Apply is pressed).
  const dirty = JSON.stringify(toSend ?? null) !== base || Object.values(typed).some((t) => t.trim() !== "");

  // The draft's own count, a moment after typing stops.
  const [debounced, setDebounced] = useState(toSend);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(toSend), 400);
    return () => clearTimeout(t);
  }, [toSend]);
  // Only once the debounced draft is the one on screen: the problems are the current draft's, and
  // a stale one (a number Field's value still empty a moment ago) was sent, and refused (400).
  const settled = JSON.stringify(debounced ?? null) === JSON.stringify(toSend ?? null);
  const draftCount = useQuery({ ...countQueryOptions(db, table, debounced), enabled: dirty && settled && problems.size === 0 });

  const apply = () => {
    // JSON typed or pasted but not loaded yet is what the user means to apply.
    const pending = showJson ? takeJson(json, wire, { fields, operators }) : undefined;
    if (pending) {
      if (!pending.ok) {
        focusJsonError(pending.message);
        return;
      }
      const tree = fromWire(pending.value);
      setDraft(tableKey, tree, base);
      if (draftProblems(tree, fields).size === 0) onApply(toWireOrUndefined(tree, { anyOf }));
      return;
    }
    // A value typed in an "is any of" box has become a chip by now (the box lost focus to Apply):
    // apply the tree as it is now, not as this render saw it.
    const latest = useDraftStore.getState().drafts[tableKey];
    const tree = latest && latest.base === base ? latest.root : root;
    if (draftProblems(tree, fields, useTypedAnyOf.getState()).size) return;
    onApply(toWireOrUndefined(tree, { anyOf }));
  };
  // Ctrl/⌘+Enter applies once what the key did in its field has rendered (a value still typed in
  // an "is any of" box becomes a chip first), so it applies what is on screen, as the button does.
  const applyLatest = useRef(apply);
  applyLatest.current = apply;
  const jsonPending = showJson && json.text !== null && json.text !== JSON.stringify(wire, null, 2);
  const applyBlocked = !jsonPending && (problems.size > 0 || !dirty);

  return (
    <section
      className="filter-builder"
      aria-label="Filter builder"
      onKeyDown={(e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          setTimeout(() => applyLatest.current());
        }
      }}
    >
      <GroupEditor group={root} path="" isRoot db={db} table={table} fields={fields} operators={operators} problems={problems} edit={edit} />
      {showJson && <FilterJsonView wire={wire} fields={fields} operators={operators} edit={json} onLoad={(f) => setDraft(tableKey, fromWire(f), base)} />}
      <div className="filter-foot">
        {/* aria-disabled, not disabled: applied from the keyboard, the button it was pressed on
            stays under the focus (review 52b #3: disabled once nothing was pending, it dropped the
            focus to the page). */}
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => (applyBlocked ? undefined : apply())}
          aria-disabled={applyBlocked || undefined}
          title={applyBlocked ? (problems.size > 0 ? "Fix the marked conditions first" : "Nothing to apply: the filter shown is the one applied") : "Apply (Ctrl+Enter)"}
        >
          Apply filter
        </button>
        {dirty && (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => {
              setDraft(tableKey, fromWire(applied), base);
              json.setText(null);
              json.setError(null);
            }}
          >
            Discard changes
          </button>
        )}
        <button type="button" className="btn btn-ghost" aria-pressed={showJson} onClick={() => setShowJson((v) => !v)}>
          {showJson ? "Hide JSON" : "JSON"}
        </button>
        <span className="spacer" />
        <span className="muted small" aria-live="polite" data-testid="filter-count">
          {jsonPending && json.error
            ? <span className="error-text">Fix the JSON first: {json.error}</span>
            : jsonPending
            ? "Edited JSON: Apply loads it and applies it"
            : problems.size > 0
              ? `${problems.size} condition${problems.size === 1 ? "" : "s"} to fix before applying`
              : dirty
                ? draftCount.data !== undefined && debounced === toSend
                  ? `Draft matches ${fmtInt(draftCount.data)} · not applied`
                  : draftCount.isError
                    ? draftCount.error.message
                    : "Not applied yet"
                : appliedCount !== undefined
                  ? `${fmtInt(appliedCount)} matching Records`
                  : ""}
        </span>
      </div>
    </section>
  );
});
