/**
 * A Record's versions from its audit entries (newest first), and what "Restore this version"
 * must set: for every Field changed after that version, its value before the first of those
 * later changes. Pure: the panel's History tab and its test use it.
 */
import { type RecordRow, type RecordValue, recordKeyText } from "../../../shared/records";
import { type AuditItem, whoText } from "./audit-list-query";

export interface FieldChange {
  field: string;
  before: RecordValue | undefined;
  after: RecordValue | undefined;
}

export interface RecordVersion {
  seq: number;
  at: string;
  actor: string;
  action: string;
  /**
   * "changed" for updates and imports, "added" for an insert, "deleted" for a delete; "maybe"
   * for a change past the before-images' limit that may have touched it (its values not kept);
   * "renamed" for an update that changed this Record's key (`key`: from, to; other Fields it
   * changed are in `fields`), "renamedAway" for one that gave the Record then holding this key
   * another key (what came before was that Record's).
   */
  what: "changed" | "added" | "deleted" | "maybe" | "renamed" | "renamedAway" | "original";
  fields: FieldChange[];
  key?: { from: string; to: string };
  /** The Fields and values that bring the Record back to this version; undefined when it is current. */
  target?: Record<string, RecordValue>;
  /** Why this version cannot be restored, when it cannot. */
  why?: string;
}

const valuesOf = (o: Record<string, RecordValue> | undefined) => o ?? {};

/** The kinds of entry that change Records. */
const CHANGES = new Set(["update", "insert", "delete-records", "import"]);

/** Why a change that does not name every Record it touched may have touched this one. */
function partialWhy(it: AuditItem): string {
  if (it.beforeImagesUnreadable) return "The values this change overwrote could not be read, so none were kept: it may have changed this Record.";
  if (it.action !== "import") return "More than 10,000 Records matched this change; this Record's values were not kept.";
  const changed = Number(it.beforeImagesOmitted) > 0;
  const added = Number(it.addedOmitted) > 0;
  const what = changed && added ? "changed and added more than 10,000 Records each" : changed ? "changed more than 10,000 Records" : "added more than 10,000 Records";
  return `The import ${what}; not all were named.`;
}

/**
 * The versions of one Record, newest first. `complete`: every page of its history is read; then,
 * when the oldest recorded entry changed the Record (it was not added through Baseboard), the
 * Record as it was before that change is listed last ("original", `at` the change's time), so
 * that change too can be taken back.
 */
export function recordVersions(items: readonly AuditItem[], record: string, pkField: string, complete = false): RecordVersion[] {
  const out: RecordVersion[] = [];
  // Imports that named every Record they updated (before-images all kept): only what they added may be unnamed.
  const namedAllUpdated = new Set(items.filter((it) => it.action === "import" && !it.beforeImagesOmitted).map((it) => it.seq));
  for (const it of items) {
    // Its answer never came back (the proxy stopped, or lost the service): it names this Record,
    // so it may have changed it; listed as such rather than left out (review 52a #1).
    if (it.outcome === "unknown" && CHANGES.has(it.action)) {
      out.push({ seq: it.seq, at: it.at, actor: whoText(it), action: it.action, what: "maybe", fields: [], why: "Its answer never came back (the proxy stopped, or lost the service meanwhile), so whether it was made is not known, nor what it overwrote: it may have changed this Record." });
      continue;
    }
    if (it.outcome !== "applied") continue;
    if (it.partial) {
      out.push({ seq: it.seq, at: it.at, actor: whoText(it), action: it.action, what: "maybe", fields: [], why: partialWhy(it) });
      continue;
    }
    // Before a change of its key, the Record had another (the history follows it there).
    const as = it.recordKey ?? record;
    const change = it.changes?.find((c) => recordKeyText(c.key) === as);
    if (change) {
      const before = valuesOf(change.before);
      const after = valuesOf(change.after);
      const names = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter((f) => f !== pkField);
      const fields = names.map((field) => ({ field, before: before[field], after: after[field] }));
      const to = pkField in after && after[pkField] !== null ? recordKeyText(after[pkField]) : as;
      const what = to === as ? "changed" : it.recordKey !== undefined ? "renamed" : "renamedAway";
      out.push({ seq: it.seq, at: it.at, actor: whoText(it), action: it.action, what, fields, ...(to !== as ? { key: { from: as, to } } : {}) });
    } else if (it.action === "insert" || (it.action === "import" && (it.added || !it.changes))) {
      const row = it.records?.find((r) => String(r[pkField]) === record);
      if (it.action === "insert" && !row && !it.keys.includes(record)) continue;
      out.push({ seq: it.seq, at: it.at, actor: whoText(it), action: it.action, what: "added", fields: row ? Object.entries(row).filter(([f]) => f !== pkField).map(([field, v]) => ({ field, before: undefined, after: v })) : [] });
    } else if (it.action === "delete-records") {
      // Named by its filter before it was sent, and not among those it removed: it did not delete this one.
      if (Array.isArray(it.deleted) && !(it.deleted as RecordRow[]).some((r) => recordKeyText(r[pkField]) === as)) continue;
      out.push({ seq: it.seq, at: it.at, actor: whoText(it), action: it.action, what: "deleted", fields: [] });
    }
  }
  // Changes past the limit that are older than the Record's addition could not have touched it
  // (the oldest version naming it added it): not listed.
  const named = out.findLastIndex((v) => v.what !== "maybe");
  if (named >= 0 && out[named].what === "added") out.splice(named + 1);
  // An import that named every Record it updated and not all it added cannot have touched a
  // Record that existed then (an older version, not its deletion): not listed for it.
  for (let i = out.length - 1; i >= 0; i--) {
    const v = out[i];
    if (v.what !== "maybe" || v.action !== "import" || !namedAllUpdated.has(v.seq)) continue;
    const before = out.slice(i + 1).find((o) => o.what !== "maybe");
    if (before && before.what !== "deleted" && before.what !== "renamedAway") out.splice(i, 1);
  }
  const oldest = out[out.length - 1];
  if (complete && oldest && (oldest.what === "changed" || oldest.what === "renamed") && oldest.fields.length) {
    out.push({ seq: 0, at: oldest.at, actor: "", action: "original", what: "original", fields: oldest.fields.map((f) => ({ field: f.field, before: undefined, after: f.before })) });
  }
  // Targets: walk from each version towards the newest, keeping the first "before" per Field.
  for (let i = 0; i < out.length; i++) {
    const target: Record<string, RecordValue> = {};
    let deletedSince = false;
    let unknownSince = false;
    let renamedAwaySince: string | undefined;
    for (let j = i - 1; j >= 0; j--) {
      // Deleted since, unless added again after (newer: smaller j), as Undo of a delete does.
      if (out[j].what === "deleted" || out[j].what === "renamedAway") deletedSince = true;
      if (out[j].what === "renamedAway") renamedAwaySince = out[j].key?.to;
      // (A Record added under a key another Record gave up is not that Record back.)
      if (out[j].what === "added" && renamedAwaySince === undefined) deletedSince = false;
      if (out[j].what === "maybe") unknownSince = true;
      // A restore sets Fields back, never the key: a version from before a rename keeps today's.
      if (out[j].what !== "changed" && out[j].what !== "renamed") continue;
      for (const f of out[j].fields) if (!(f.field in target) && f.before !== undefined) target[f.field] = f.before;
    }
    // The Record before its first recorded change: every Field changed since, as it was then
    // (not only the Fields of that first change), as its Restore sets them.
    if (out[i].what === "original") out[i].fields = Object.entries(target).map(([field, after]) => ({ field, before: undefined, after }));
    if (out[i].what === "maybe") continue; // why: said when it was listed
    if (i === 0 && out[i].what !== "renamedAway") out[i].why = "This is the current version.";
    else if (unknownSince) out[i].why = "A change since may have changed this Record without keeping its values: compare with the Record before restoring by hand.";
    else if (deletedSince && renamedAwaySince !== undefined) out[i].why = `That Record's key changed to ${renamedAwaySince} since: restore it from the history of ${renamedAwaySince}.`;
    else if (deletedSince) out[i].why = "The Record was deleted since; undo the delete first.";
    else if (out[i].what === "deleted") out[i].why = "This version is the deletion.";
    else if (out[i].what === "renamedAway") out[i].why = `After this change, that Record's history goes on under ${out[i].key?.to}.`;
    else if (Object.keys(target).length === 0) out[i].why = "Nothing changed since this version.";
    else out[i].target = target;
  }
  return out;
}

/** The Fields of `target` whose current value differs: what a restore sends. */
export function restoreValues(current: RecordRow, target: Record<string, RecordValue>, same: (a: RecordValue | undefined, b: RecordValue | undefined) => boolean): { field: string; from: RecordValue; to: RecordValue }[] {
  return Object.entries(target)
    .filter(([f, v]) => f in current && !same(current[f], v))
    .map(([field, to]) => ({ field, from: current[field] ?? null, to }));
}
