/**
 * What an update overwrote, as the trail stores it, and as clients read it (pure).
 *
 * Stored as the service answered it: `fields` (the primary key first, then the Fields set), one
 * row per matching Record holding those Fields as they were, and the values the update set (an
 * update by filter sets the same values on every Record). For 10,000 Records that is half the
 * bytes of one `{key, before, after}` object per Record, and no per-Record work on the request
 * path: which Records really changed (a Field already holding the value is not a change) is
 * worked out when the entry is read. Entries written before this shape (one object per changed
 * Record) still read.
 */
import type { BeforeImages } from "../../../shared/record-writes";
import { recordKeyText } from "../../../shared/records";

export interface RecordChange {
  key: unknown;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

export interface StoredChanges extends BeforeImages {
  /** What each Field set was set to. */
  after: Record<string, unknown>;
}

/**
 * An import's: each Record's own new values follow its old ones in its row (`fields`: the
 * primary key, then the file's other columns; a row: the key, those Fields as they were, then as
 * the file set them).
 */
export interface StoredImport extends BeforeImages {
  afterInRow: true;
}

/** The stored changes of an import from the rows the service read before it overwrote them. */
export function packImported(images: BeforeImages): { changes: StoredImport; keys: string[] } {
  return { changes: { fields: images.fields, rows: images.rows, afterInRow: true }, keys: images.rows.map((r) => recordKeyText(r[0])) };
}

function isImport(v: unknown): v is StoredImport {
  const s = v as StoredImport;
  return !!s && typeof s === "object" && s.afterInRow === true && Array.isArray(s.fields) && Array.isArray(s.rows);
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * The stored changes of an update from its before-images (primary key first) and the values it
 * set; the Records' keys as text. An update that sets the primary key (a rename) is listed under
 * the new key too, so the Record's history under its new key finds it (see `renamedInto`).
 */
export function packChanges(images: BeforeImages, values: { key: string; value: unknown }[]): { changes: StoredChanges; keys: string[] } {
  const after: Record<string, unknown> = {};
  for (const v of values) after[v.key] = v.value ?? null;
  const keys = images.rows.map((r) => recordKeyText(r[0]));
  const pk = images.fields[0];
  if (pk !== undefined && pk in after && after[pk] !== null && images.rows.length > 0) {
    const renamed = recordKeyText(after[pk]);
    if (!keys.includes(renamed)) keys.push(renamed);
  }
  return { changes: { fields: images.fields, rows: images.rows, after }, keys };
}

/**
 * When these stored changes renamed a Record to `key` (set its primary key from another value):
 * the key it had before. A Record's history follows it there for what came before the rename.
 */
export function renamedInto(stored: unknown, key: string): string | undefined {
  const r = renameOf(stored);
  return r?.to === key ? r.from : undefined;
}

/** The change of one Record's key these stored changes made (an update setting the primary key), if any. */
export function renameOf(stored: unknown): { from: string; to: string } | undefined {
  if (!isStored(stored) || isImport(stored)) return undefined;
  const pk = stored.fields[0];
  if (pk === undefined || !(pk in stored.after) || stored.after[pk] === null || stored.rows.length !== 1) return undefined;
  const [from, to] = [recordKeyText(stored.rows[0][0]), recordKeyText(stored.after[pk])];
  return from === to ? undefined : { from, to };
}

function isStored(v: unknown): v is StoredChanges {
  const s = v as StoredChanges;
  return !!s && typeof s === "object" && Array.isArray(s.fields) && Array.isArray(s.rows) && !!s.after && typeof s.after === "object";
}

/** How many Records the stored changes cover, changed or not (the work of expanding them). */
export function changesSize(stored: unknown): number {
  return Array.isArray(stored) ? stored.length : isStored(stored) || isImport(stored) ? stored.rows.length : 0;
}

/**
 * One `{key, before, after}` per Record that changed, listing only its Fields that changed;
 * `only` keeps the one Record with that key (as text). Undefined when nothing was stored.
 */
export function expandChanges(stored: unknown, only?: string): RecordChange[] | undefined {
  if (Array.isArray(stored)) {
    const rows = stored as RecordChange[];
    return only === undefined ? rows : rows.filter((c) => recordKeyText(c.key) === only);
  }
  if (isImport(stored)) {
    const n = stored.fields.length - 1;
    const out: RecordChange[] = [];
    for (const row of stored.rows) {
      if (only !== undefined && recordKeyText(row[0]) !== only) continue;
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      for (let i = 1; i <= n; i++) {
        const [was, to] = [row[i] ?? null, row[i + n] ?? null];
        if (same(was, to)) continue;
        before[stored.fields[i]] = was;
        after[stored.fields[i]] = to;
      }
      if (Object.keys(after).length) out.push({ key: row[0], before, after });
    }
    return out;
  }
  if (!isStored(stored)) return undefined;
  const set = Object.keys(stored.after).map((f) => ({ f, at: stored.fields.indexOf(f), to: stored.after[f] }));
  const out: RecordChange[] = [];
  for (const row of stored.rows) {
    if (only !== undefined && recordKeyText(row[0]) !== only) continue;
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    let changed = false;
    for (const { f, at, to } of set) {
      const was = at < 0 ? null : (row[at] ?? null);
      if (!same(was, to)) {
        before[f] = was;
        after[f] = to;
        changed = true;
      }
    }
    if (changed) out.push({ key: row[0], before, after });
  }
  return out;
}

const PIN_DEPTH = 32;

/**
 * The primary keys a filter confines a change to, when it does (`pk` equal to a value, or any of
 * some values, in the top group's `and`, or in every branch of its `or`); undefined when it may
 * reach other Records. The change's entry names these before it is sent: were its answer never to
 * come back (the proxy stopped), each Record's history still lists it (review 52a #1).
 */
export function keysPinnedBy(filter: unknown, pk: string, depth = 0): string[] | undefined {
  const node = filter as { and?: unknown; or?: unknown; key?: unknown; operator?: unknown; value?: unknown } | null;
  // The interface allows filters 10,000 levels deep: past a few, nobody pins keys that way, and
  // the walk stops rather than overflow the stack (the change is then named by nothing, as before).
  if (!node || typeof node !== "object" || depth > PIN_DEPTH) return undefined;
  if (node.key === pk && node.operator === "equal" && node.value !== null && node.value !== undefined) return [recordKeyText(node.value)];
  if (node.key === pk && node.operator === "anyOf" && Array.isArray(node.value) && node.value.length > 0) return node.value.map(recordKeyText);
  if (Array.isArray(node.and)) {
    for (const child of node.and) {
      const pinned = keysPinnedBy(child, pk, depth + 1);
      if (pinned) return pinned;
    }
    return undefined;
  }
  if (Array.isArray(node.or) && node.or.length > 0) {
    const all: string[] = [];
    for (const child of node.or) {
      const pinned = keysPinnedBy(child, pk, depth + 1);
      if (!pinned) return undefined;
      all.push(...pinned);
    }
    return [...new Set(all)];
  }
  return undefined;
}
