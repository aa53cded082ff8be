/**
 * The filter builder's editable tree: the wire filter (src/shared/filter.ts) with a stable id on
 * every node, so React can key rows and edits can address a node. All edits are pure and return
 * a new tree; a locked (isFixed) condition refuses edits, removal and moves until unlocked.
 */
import { valuelessOperators } from "../../../shared/operators";
import type { FilterCondition, FilterGroup, FilterNode, FilterValue } from "../../../shared/filter";
import { anyOfOperator, isGroup } from "../../../shared/filter";

export type GroupOp = "and" | "or";

export interface CondNode {
  kind: "cond";
  id: string;
  key: string;
  operator: string;
  /** A list for `anyOf` ("is any of"), one value otherwise. */
  value: FilterValue | FilterValue[] | undefined;
  isFixed: boolean;
}

export interface GroupNode {
  kind: "group";
  id: string;
  op: GroupOp;
  children: BuilderNode[];
}

export type BuilderNode = CondNode | GroupNode;

let seq = 0;
export function newId(): string {
  seq += 1;
  return `n${seq.toString(36)}`;
}

export function emptyRoot(): GroupNode {
  return { kind: "group", id: newId(), op: "and", children: [] };
}

export function newCondition(key: string, operator = "equal", value: FilterValue | undefined = ""): CondNode {
  return { kind: "cond", id: newId(), key, operator, value, isFixed: false };
}

export function newGroup(op: GroupOp = "and", children: BuilderNode[] = []): GroupNode {
  return { kind: "group", id: newId(), op, children };
}

/** Wire → builder. The input must already be a valid filter (see parseFilter). */
export function fromWire(filter: FilterGroup | undefined): GroupNode {
  if (!filter) return emptyRoot();
  return toBuilder(filter) as GroupNode;
}

function toBuilder(node: FilterNode): BuilderNode {
  if (isGroup(node)) {
    const op: GroupOp = "and" in node ? "and" : "or";
    const list = (node as Record<GroupOp, FilterNode[]>)[op];
    return { kind: "group", id: newId(), op, children: list.map(toBuilder) };
  }
  return {
    kind: "cond",
    id: newId(),
    key: node.key,
    operator: node.operator,
    value: node.operator === anyOfOperator && Array.isArray((node as { value?: unknown }).value) ? [...(node.value as unknown as FilterValue[])] : node.value,
    isFixed: node.isFixed === true,
  };
}

export interface WireOptions {
  /** The upstream reads `anyOf` (capabilities.anyOf); without it "is any of" goes as an `or` of `equal`s. */
  anyOf: boolean;
}

/** Builder → wire: exactly what the service receives. `isFixed` only appears when true. */
export function toWire(group: GroupNode, opts: WireOptions = { anyOf: true }): FilterGroup {
  const list = group.children.map((c) => nodeToWire(c, opts));
  return group.op === "and" ? { and: list } : { or: list };
}

function nodeToWire(node: BuilderNode, opts: WireOptions): FilterNode {
  if (node.kind === "group") return toWire(node, opts);
  if (node.operator === anyOfOperator) {
    const values = Array.isArray(node.value) ? node.value : node.value === undefined ? [] : [node.value];
    if (opts.anyOf) {
      const c = { key: node.key, operator: anyOfOperator, value: [...values] } as unknown as FilterCondition;
      if (node.isFixed) c.isFixed = true;
      return c;
    }
    // The hosted interface knows only `equal`: the same meaning, spelled its way.
    return { or: values.map((v) => ({ key: node.key, operator: "equal", value: v, ...(node.isFixed ? { isFixed: true } : {}) })) };
  }
  const out: FilterCondition = { key: node.key, operator: node.operator };
  if (!valuelessOperators.has(node.operator)) out.value = node.value === undefined ? null : Array.isArray(node.value) ? (node.value[0] ?? null) : node.value;
  if (node.isFixed) out.isFixed = true;
  return out;
}

/** From the shared operator table (src/shared/operators.ts). */
export { valuelessOperators };

export function findNode(root: GroupNode, id: string): BuilderNode | undefined {
  if (root.id === id) return root;
  for (const c of root.children) {
    if (c.id === id) return c;
    if (c.kind === "group") {
      const f = findNode(c, id);
      if (f) return f;
    }
  }
  return undefined;
}

function findParent(root: GroupNode, id: string): { parent: GroupNode; index: number } | undefined {
  const index = root.children.findIndex((c) => c.id === id);
  if (index >= 0) return { parent: root, index };
  for (const c of root.children) {
    if (c.kind === "group") {
      const f = findParent(c, id);
      if (f) return f;
    }
  }
  return undefined;
}

/** True when the node is, or contains, a locked condition. */
export function containsLocked(node: BuilderNode): boolean {
  return node.kind === "cond" ? node.isFixed : node.children.some(containsLocked);
}

/** Rebuild the path from the root to the group with `id`, applying `fn` to it. */
function mapGroup(root: GroupNode, id: string, fn: (g: GroupNode) => GroupNode): GroupNode {
  if (root.id === id) return fn(root);
  let changed = false;
  const children = root.children.map((c) => {
    if (c.kind !== "group") return c;
    const next = mapGroup(c, id, fn);
    if (next !== c) changed = true;
    return next;
  });
  return changed ? { ...root, children } : root;
}

export function addChild(root: GroupNode, groupId: string, child: BuilderNode): GroupNode {
  return mapGroup(root, groupId, (g) => ({ ...g, children: [...g.children, child] }));
}

export function setGroupOp(root: GroupNode, groupId: string, op: GroupOp): GroupNode {
  return mapGroup(root, groupId, (g) => ({ ...g, op }));
}

/** Patch a condition; refused (tree unchanged) while it is locked, except for unlocking. */
export function updateCondition(root: GroupNode, id: string, patch: Partial<Omit<CondNode, "id" | "kind">>): GroupNode {
  const loc = findParent(root, id);
  if (!loc) return root;
  const node = loc.parent.children[loc.index];
  if (node.kind !== "cond") return root;
  const onlyLockChange = Object.keys(patch).every((k) => k === "isFixed");
  if (node.isFixed && !onlyLockChange) return root;
  return mapGroup(root, loc.parent.id, (g) => ({
    ...g,
    children: g.children.map((c) => (c.id === id ? { ...(c as CondNode), ...patch } : c)),
  }));
}

export function removeNode(root: GroupNode, id: string): GroupNode {
  const loc = findParent(root, id);
  if (!loc || containsLocked(loc.parent.children[loc.index])) return root;
  return mapGroup(root, loc.parent.id, (g) => ({ ...g, children: g.children.filter((c) => c.id !== id) }));
}

function cloneFresh(node: BuilderNode): BuilderNode {
  if (node.kind === "cond") return { ...node, id: newId(), isFixed: false };
  return { ...node, id: newId(), children: node.children.map(cloneFresh) };
}

/** Insert a copy right after the original. The copy is unlocked: it is a new condition to edit. */
export function duplicateNode(root: GroupNode, id: string): GroupNode {
  const loc = findParent(root, id);
  if (!loc) return root;
  const copy = cloneFresh(loc.parent.children[loc.index]);
  return mapGroup(root, loc.parent.id, (g) => {
    const children = [...g.children];
    children.splice(loc.index + 1, 0, copy);
    return { ...g, children };
  });
}

/**
 * Move one step up or down in reading order: past a sibling, into an adjacent group (as its
 * last/first child), or out of its group when it is already at the edge. Locked nodes stay put,
 * because moving them across groups changes what they mean.
 */
export function moveNode(root: GroupNode, id: string, dir: "up" | "down"): GroupNode {
  const loc = findParent(root, id);
  if (!loc) return root;
  const node = loc.parent.children[loc.index];
  if (containsLocked(node)) return root;
  const siblings = loc.parent.children;
  const targetIndex = dir === "up" ? loc.index - 1 : loc.index + 1;
  const without = removeUnchecked(root, id);
  if (targetIndex >= 0 && targetIndex < siblings.length) {
    const neighbour = siblings[targetIndex];
    if (neighbour.kind === "group") {
      return mapGroup(without, neighbour.id, (g) => ({
        ...g,
        children: dir === "up" ? [...g.children, node] : [node, ...g.children],
      }));
    }
    return mapGroup(without, loc.parent.id, (g) => {
      const children = [...g.children];
      children.splice(targetIndex, 0, node);
      return { ...g, children };
    });
  }
  // At the edge of its group: step out into the grandparent, before or after the group.
  const outer = findParent(root, loc.parent.id);
  if (!outer) return root;
  return mapGroup(without, outer.parent.id, (g) => {
    const children = [...g.children];
    children.splice(dir === "up" ? outer.index : outer.index + 1, 0, node);
    return { ...g, children };
  });
}

function removeUnchecked(root: GroupNode, id: string): GroupNode {
  const loc = findParent(root, id);
  if (!loc) return root;
  return mapGroup(root, loc.parent.id, (g) => ({ ...g, children: g.children.filter((c) => c.id !== id) }));
}

/** Wrap a node in a new group of the other kind, the usual way to start nesting. */
export function wrapInGroup(root: GroupNode, id: string): GroupNode {
  const loc = findParent(root, id);
  if (!loc) return root;
  const node = loc.parent.children[loc.index];
  const op: GroupOp = loc.parent.op === "and" ? "or" : "and";
  return mapGroup(root, loc.parent.id, (g) => ({
    ...g,
    children: g.children.map((c) => (c.id === id ? newGroup(op, [node]) : c)),
  }));
}

export function countConditions(node: BuilderNode): number {
  return node.kind === "cond" ? 1 : node.children.reduce((n, c) => n + countConditions(c), 0);
}
