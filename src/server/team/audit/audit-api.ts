/**
 * GET /api/audit: the trail, newest first, paged by cursor. Filters: table=<db>/<slug>,
 * record=<primary key>, bucket=, key=, actor=<email>, since, until (ISO times), kind (comma
 * list), limit (≤ 500), changes (how many Records of each entry to list; all when left out). A Record's history (table and record given) is open to anyone who may
 * read that table; everything else needs the admin role (403 otherwise).
 */
import { AUDIT_KINDS } from "../../../shared/audit-kinds";
import { errorBody } from "../../../shared/errors";
import type { Actor, Resource } from "../contract";
import { decide } from "../grants/permissions";
import type { AuditEntry } from "./audit-entry";
import { type AuditLog, type AuditQuery, namesNotAll } from "./audit-log";
import { parseIsoTime } from "./iso-time";
import { expandChanges, renamedInto, renameOf } from "./record-changes";

export type AuditAnswer = { status: number; body: unknown };
const bad = (message: string): AuditAnswer => ({ status: 400, body: errorBody("validation_error", message) });

function time(raw: string | null, name: string): number | undefined | string {
  if (raw === null || raw === "") return undefined;
  return parseIsoTime(raw) ?? `${name} must be an ISO time such as 2026-11-25T10:00:00Z, on a date that exists (got "${raw}").`;
}

/**
 * The kinds `kind=` may name (an outcome is folded into its change, never listed alone). A
 * Record's "Restore this version" is recorded as the update it is.
 */
/** An item names this many of its keys (and of an import's added ones); `keyCount` says how many. */
const KEYS_LISTED = 100;

export const LISTED_KINDS = AUDIT_KINDS;

/** One entry as clients see it: the change with its outcome folded in. */
/**
 * The Records or files a change names: its request entry's keys and those its outcome adds, known
 * only from the answer (an upload's; an update's when the upstream read them; a rename's new key
 * when the proxy read the Records before: review 37a #1).
 */
function keysOf(change: AuditEntry, outcome: AuditEntry | undefined): string[] {
  if (!outcome?.keys.length) return change.keys;
  if (!change.keys.length) return outcome.keys;
  return [...new Set([...change.keys, ...outcome.keys])];
}

export function present(e: AuditEntry, outcome: AuditEntry | undefined, record?: string, maxChanges = Infinity) {
  const detail = JSON.parse(e.detailJson) as Record<string, unknown>;
  const out = outcome ? (JSON.parse(outcome.detailJson) as Record<string, unknown>) : {};
  const resource = e.resource ?? undefined;
  const keys = keysOf(e, outcome);
  const all = expandChanges(out.changes, record);
  // A change of one Record's key is listed under both keys: one Record, named by both.
  const renamed = renameOf(out.changes);
  // A list asks for the first n of an entry's Records (`changes=n`): 10,000 are 1.2 MB.
  const changes = all && all.length > maxChanges ? all.slice(0, maxChanges) : all;
  const beforeImagesOmitted = (detail.beforeImagesOmitted ?? out.beforeImagesOmitted) as number | undefined;
  return {
    seq: e.seq,
    at: new Date(e.at).toISOString(),
    actor: e.actorEmail,
    actorKind: e.actorKind,
    address: e.address,
    action: e.kind,
    endpoint: e.endpoint,
    // A refused change: what it asked for, by route (update, insert, delete-records, import,
    // upload, delete, storage-job-start, …), so a list can say "Tried to delete Records".
    asked: e.kind === "refused" && typeof detail.endpoint === "string" ? detail.endpoint : undefined,
    table: resource?.startsWith("table:") ? resource.slice(6) : undefined,
    bucket: resource?.startsWith("bucket:") ? resource.slice(7) : undefined,
    keys: keys.slice(0, KEYS_LISTED),
    keyCount: renamed ? 1 : keys.length,
    renamed,
    outcome: e.kind === "refused" ? "refused" : e.kind === "sign-in-failed" ? "failed" : ((out.outcome as string | undefined) ?? (detail.outcome === "pending" ? "unknown" : undefined)),
    // Failed sign-ins carry how many they were (per account and address, within a minute).
    count: e.kind === "sign-in-failed" ? (detail.count ?? 1) : out.count,
    message: (out.message ?? detail.message) as string | undefined,
    filter: detail.filter,
    // A filter too deep to keep as JSON is kept as its text.
    filterText: detail.filterText,
    values: detail.values,
    changes,
    changesOmitted: all && changes && all.length > changes.length ? all.length - changes.length : undefined,
    deleted: out.deleted,
    records: detail.records,
    // An import's counts; in a Record's history, whether it added this Record. Past 10,000
    // Records added, the rest are counted, not named.
    // Made by the app's Undo or Redo, and of what ("undo: Import people.csv").
    undoOf: detail.undoOf as string | undefined,
    inserted: out.inserted,
    updated: out.updated,
    changed: out.changed,
    added: record !== undefined && Array.isArray(out.added) && (out.added as string[]).includes(record) ? true : undefined,
    // In the whole trail's list: the keys of the Records it added (the first KEYS_LISTED).
    addedKeys: record === undefined && Array.isArray(out.added) ? (out.added as string[]).slice(0, KEYS_LISTED) : undefined,
    addedOmitted: out.addedOmitted,
    file:
      e.kind === "upload" || e.kind === "restore-file"
        ? {
            key: out.key ?? detail.key,
            version: out.version,
            versionedKey: out.versionedKey,
            size: out.size ?? detail.size,
            ...(e.kind === "restore-file" ? { restoredFrom: detail.restoredFrom } : {}),
            // A resumable upload completed again (its answer lost): the same version, nothing new.
            ...(out.again === true ? { again: true } : {}),
          }
        : e.kind === "delete-file" && detail.key
          ? // Every version the delete removed, as listed before it (where the upstream lists versions).
            { key: detail.key, size: detail.size, versions: detail.versions, versionsOmitted: detail.versionsOmitted }
          : detail.key
            ? { key: detail.key }
            : undefined,
    beforeImagesOmitted,
    beforeImagesUnreadable: out.beforeImagesUnreadable === true ? true : undefined,
    // In a Record's history: a change past the before-images' limit that does not name this
    // Record may still have changed it (its values were not kept).
    partial: record !== undefined && (namesNotAll(detail) || namesNotAll(out)) && !keys.includes(record) ? true : undefined,
    // What was asked (its own `outcome` was "pending" when it was written: the item's says how it went).
    detail: e.kind === "storage-job" || e.kind === "people" ? { ...detail, outcome: undefined } : undefined,
    // A storage job's state, files done and total: as answered, then as it ended.
    job: out.job,
    hash: e.hash,
  };
}

/** What GET /api/audit reads; anything else is refused (review 51a #5: `tabel=` gave the whole log, unfiltered). */
const AUDIT_PARAMS = ["table", "record", "bucket", "key", "actor", "kind", "since", "until", "limit", "cursor", "changes"];

export async function answerAudit(log: AuditLog, actor: Actor, params: URLSearchParams): Promise<AuditAnswer> {
  for (const [name, value] of params) {
    if (!AUDIT_PARAMS.includes(name)) return bad(`${JSON.stringify(name)} is not a parameter of /api/audit: it takes ${AUDIT_PARAMS.join(", ")} (each in lower case).`);
    // An empty filter read as none widened the query unsaid (review 52a #3: actor= gave everyone's).
    if (value.trim() === "") return bad(`${name} is empty: give it a value, or leave it out.`);
    // No table, key, person or time holds one; PostgreSQL cannot even be asked about it (a 500).
    if (value.includes("\0")) return bad(`${name} has a NUL character (%00): remove it.`);
    // One value each (review 50a #3: the first was taken unsaid, and two tables read as none).
    if (params.getAll(name).length > 1) return bad(`${name} is given more than once: give it once${name === "kind" ? " (several kinds as one comma list: kind=update,import)" : ""}.`);
  }
  const table = params.get("table") ?? undefined;
  const record = params.get("record") ?? undefined;
  const bucket = params.get("bucket") ?? undefined;
  const key = params.get("key") ?? undefined;
  if (table !== undefined && !/^[^/\s]+\/[^/\s]+$/.test(table)) return bad("table is <database_id>/<table_slug>, e.g. demo/employees.");
  if (table && bucket) return bad("Give table or bucket, not both.");
  const history = table !== undefined && record !== undefined;
  const may = history ? decide(actor, "read", `table:${table}` as Resource) : decide(actor, "read-activity");
  if (!may.allowed) {
    return { status: 403, body: { error: "forbidden", subCode: 3, message: history ? may.message : `${may.message} (A Record's history, with table= and record=, is open to anyone who may read the table.)` } };
  }
  // A table or bucket taken away from an admin (granted none) is not theirs to read in the log
  // either (review 48a #2: its history was refused, its values listed in the whole log).
  const asked = table ? (`table:${table}` as Resource) : bucket ? (`bucket:${bucket}` as Resource) : undefined;
  if (!history && asked) {
    const mayResource = decide(actor, "read", asked);
    if (!mayResource.allowed) return { status: 403, body: { error: "forbidden", subCode: 3, message: mayResource.message } };
  }
  const since = time(params.get("since"), "since");
  const until = time(params.get("until"), "until");
  if (typeof since === "string") return bad(since);
  if (typeof until === "string") return bad(until);
  const limitRaw = params.get("limit");
  const limit = limitRaw === null ? 50 : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) return bad("limit is a whole number from 1 to 500.");
  const changesRaw = params.get("changes");
  const maxChanges = changesRaw === null || changesRaw === "" ? Infinity : Number(changesRaw);
  if (maxChanges !== Infinity && (!Number.isInteger(maxChanges) || maxChanges < 0)) return bad("changes is how many Records of each entry to list: a whole number (leave it out for all).");
  const cursor = parseCursor(params.get("cursor"));
  if (cursor === "bad") return bad("cursor is the nextCursor of a previous page.");
  const beforeSeq = cursor?.seq;
  const kinds = params.get("kind")?.split(",").map((k) => k.trim()).filter(Boolean);
  const unknownKind = kinds?.find((k) => !(LISTED_KINDS as readonly string[]).includes(k));
  if (unknownKind !== undefined) return bad(`kind "${unknownKind}" is not one of ${LISTED_KINDS.join(", ")} (a comma list).`);
  const q: AuditQuery = {
    resource: table ? `table:${table}` : bucket ? `bucket:${bucket}` : undefined,
    key: record ?? key,
    actor: params.get("actor")?.trim().toLowerCase() || undefined,
    since,
    until,
    kinds,
    beforeSeq,
    limit: limit + 1,
  };
  if (history) {
    const filtered = q.actor !== undefined || q.since !== undefined || q.until !== undefined || q.kinds?.length;
    return { status: 200, body: filtered ? await filteredHistoryPage(log, q, record, cursor, limit, maxChanges) : await historyPage(log, q, record, cursor?.key ?? record, limit, maxChanges) };
  }
  if (cursor?.key !== undefined) return bad("cursor is the nextCursor of a previous page.");
  const mayRead = (resource: unknown) => typeof resource !== "string" || !/^(table|bucket):/.test(resource) || decide(actor, "read", resource as Resource).allowed;
  // A grant to a hidden table or bucket names it too (review 49b #3: "Set table demo/catalog to
  // no access for …" was listed to an admin it is hidden from).
  const { page, next } = await visiblePage(log, q, limit, (e) => mayRead(e.resource) && (e.kind !== "people" || mayRead(grantResourceOf(e.detailJson))));
  const outcomes = await log.outcomesOf(page.map((e) => e.seq));
  return {
    status: 200,
    body: {
      items: page.map((e) => present(e, outcomes.get(e.seq), record, maxChanges)),
      nextCursor: next === null ? null : String(next),
    },
  };
}

/** The table or bucket a people entry's grant names, if any. */
function grantResourceOf(detailJson: string): unknown {
  if (!detailJson.includes('"resource"')) return undefined;
  try {
    return (JSON.parse(detailJson) as { resource?: unknown }).resource;
  } catch {
    return undefined;
  }
}

/**
 * Up to `limit` entries the reader may see, newest first, and the seq the next page starts below
 * (null when none is left): entries of tables and buckets hidden from them are passed over,
 * reading on until the page is full (at most 20 reads; a page may then come back shorter).
 */
async function visiblePage(log: AuditLog, q: AuditQuery, limit: number, visible: (e: AuditEntry) => boolean) {
  const page: Awaited<ReturnType<AuditLog["list"]>> = [];
  let beforeSeq = q.beforeSeq;
  for (let round = 0; round < 20; round++) {
    const rows = await log.list({ ...q, beforeSeq, limit: limit + 1 });
    const scanned = rows.slice(0, limit);
    for (const [i, e] of scanned.entries()) {
      if (!visible(e)) continue;
      page.push(e);
      if (page.length === limit) return { page, next: i + 1 < rows.length ? e.seq : null };
    }
    if (rows.length <= limit) return { page, next: null };
    beforeSeq = scanned[scanned.length - 1].seq;
  }
  return { page, next: beforeSeq ?? null };
}

/**
 * A cursor is the seq the next page starts below; in a Record's history that has followed a
 * rename, also the key the Record had then (`<seq>.<key, base64url>`).
 */
function parseCursor(raw: string | null): { seq: number; key?: string } | undefined | "bad" {
  if (!raw) return undefined;
  const [seqText, keyText, ...rest] = raw.split(".");
  // Digits only, within what a number holds exactly (1e3, 0x10 and " 5" were taken; 2^63 was a 500 on PostgreSQL).
  const seq = /^[1-9]\d{0,15}$/.test(seqText) ? Number(seqText) : NaN;
  if (!Number.isSafeInteger(seq) || rest.length) return "bad";
  if (keyText === undefined) return { seq };
  const key = /^[\w-]+$/.test(keyText) ? Buffer.from(keyText, "base64url").toString("utf8") : "";
  // A key this answer gave encodes back to itself, and is text a store can hold.
  return key && Buffer.from(key, "utf8").toString("base64url") === keyText && !key.includes("\0") ? { seq, key } : "bad";
}

/**
 * A Record's history, newest first. It follows the Record through changes of its primary key:
 * the entry that renamed it (listed under its new key too) is followed by what came before
 * under the key it had, and so on back. Entries under the new key older than the rename are
 * another Record's (one deleted before), and are not listed.
 */
async function historyPage(log: AuditLog, q: AuditQuery, record: string, startKey: string, limit: number, maxChanges: number) {
  // recordKey: the key the Record had at that entry, where it is not `record` (before a rename).
  const items: (ReturnType<typeof present> & { recordKey?: string })[] = [];
  let key = startKey;
  let beforeSeq = q.beforeSeq;
  // Each round reads one key's entries (at most one more than the page still needs).
  for (let round = 0; round < 100; round++) {
    const want = limit - items.length;
    const rows = await log.list({ ...q, key, beforeSeq, limit: want + 1 });
    const outcomes = await log.outcomesOf(rows.slice(0, want).map((e) => e.seq));
    let renamedFrom: string | undefined;
    for (const [i, e] of rows.entries()) {
      if (i === want) return { items, nextCursor: cursorAt(items[items.length - 1].seq, key, record) };
      const out = outcomes.get(e.seq);
      renamedFrom = renameFrom(e, out, key);
      // The rename shows as the old key's change (its row names the old key).
      items.push({ ...present(e, out, renamedFrom ?? key, maxChanges), recordKey: key === record && !renamedFrom ? undefined : (renamedFrom ?? key) });
      if (renamedFrom !== undefined) {
        beforeSeq = e.seq;
        break;
      }
    }
    if (renamedFrom === undefined) return { items, nextCursor: null };
    if (items.length === limit) {
      // Full at the rename: a next page only when the key before it has entries to show.
      const older = await log.list({ ...q, key: renamedFrom, beforeSeq, limit: 1 });
      return { items, nextCursor: older.length ? cursorAt(beforeSeq!, renamedFrom, record) : null };
    }
    key = renamedFrom;
  }
  return { items, nextCursor: cursorAt(beforeSeq!, key, record) };
}

/**
 * The Record's keys back through changes of its key, newest first, walked without the filters:
 * each key, and its stretch of the trail (`from`: the entry that renamed the Record into it,
 * which belongs to it; 0 when none; `to`: where the newer key's stretch starts).
 */
async function lineage(log: AuditLog, resource: string | undefined, record: string): Promise<{ key: string; from: number; to?: number }[]> {
  const out: { key: string; from: number; to?: number }[] = [];
  let key = record;
  let to: number | undefined;
  for (let hop = 0; hop < 100; hop++) {
    const rename = await renameInto(log, resource, key, to);
    out.push({ key, from: rename?.seq ?? 0, to });
    if (!rename) break;
    [key, to] = [rename.from, rename.seq];
  }
  return out;
}

/** The newest entry under `key` before `beforeSeq` that renamed a Record into it. */
async function renameInto(log: AuditLog, resource: string | undefined, key: string, beforeSeq: number | undefined): Promise<{ seq: number; from: string } | undefined> {
  for (let cursor = beforeSeq; ; ) {
    const rows = await log.list({ resource, key, beforeSeq: cursor, limit: 200 });
    const outcomes = await log.outcomesOf(rows.map((e) => e.seq));
    for (const e of rows) {
      const from = renameFrom(e, outcomes.get(e.seq), key);
      if (from !== undefined) return { seq: e.seq, from };
    }
    if (rows.length < 200) return undefined;
    cursor = rows[rows.length - 1].seq;
  }
}

/**
 * A Record's history with filters (actor, since, until, kind): the stretches of its lineage
 * (found without them, so a rename the filters leave out is still followed), each read with them.
 */
async function filteredHistoryPage(log: AuditLog, q: AuditQuery, record: string, cursor: { seq: number; key?: string } | undefined, limit: number, maxChanges: number) {
  const stretches = await lineage(log, q.resource, record);
  const at = cursor ? (cursor.key ?? record) : record;
  let i = cursor ? stretches.findIndex((s) => s.key === at && cursor.seq > s.from && (s.to === undefined || cursor.seq <= s.to)) : 0;
  const items: (ReturnType<typeof present> & { recordKey?: string })[] = [];
  if (i < 0) return { items, nextCursor: null };
  let beforeSeq = cursor?.seq;
  for (; i < stretches.length; i++) {
    const s = stretches[i];
    const want = limit - items.length;
    const upper = Math.min(beforeSeq ?? Infinity, s.to ?? Infinity);
    const rows = (await log.list({ ...q, key: s.key, beforeSeq: upper === Infinity ? undefined : upper, limit: want + 1 })).filter((e) => e.seq >= s.from);
    const outcomes = await log.outcomesOf(rows.slice(0, want).map((e) => e.seq));
    for (const [j, e] of rows.entries()) {
      if (j === want) return { items, nextCursor: cursorAt(items[items.length - 1].seq, s.key, record) };
      // The entry that renamed the Record into this key shows as the older key's change.
      const older = e.seq === s.from ? stretches[i + 1]?.key : undefined;
      items.push({ ...present(e, outcomes.get(e.seq), older ?? s.key, maxChanges), recordKey: s.key === record && older === undefined ? undefined : (older ?? s.key) });
    }
    beforeSeq = undefined;
    // Full at the end of a stretch: a next page, starting with the older stretch, only when one
    // of the older stretches has an entry the filters keep (no empty page with a cursor).
    if (items.length === limit) {
      const more = await anyMatchIn(log, q, stretches.slice(i + 1));
      return { items, nextCursor: more ? cursorAt(s.from, stretches[i + 1].key, record) : null };
    }
  }
  return { items, nextCursor: null };
}

/** Whether any of these stretches holds an entry the query's filters keep. */
async function anyMatchIn(log: AuditLog, q: AuditQuery, stretches: { key: string; from: number; to?: number }[]): Promise<boolean> {
  for (const s of stretches) {
    const rows = await log.list({ ...q, key: s.key, beforeSeq: s.to, limit: 1 });
    if (rows.length && rows[0].seq >= s.from) return true;
  }
  return false;
}

const cursorAt = (seq: number, key: string, record: string) => (key === record ? String(seq) : `${seq}.${Buffer.from(key, "utf8").toString("base64url")}`);

/**
 * The key an outcome renamed the Record from into `key`, if it did. A rename's outcome lists
 * exactly the two keys: any other is not parsed (a bulk change's is up to half a megabyte, and
 * `present` parses the ones on the page anyway).
 */
function renameFrom(change: AuditEntry, outcome: AuditEntry | undefined, key: string): string | undefined {
  const keys = keysOf(change, outcome);
  if (!outcome || keys.length !== 2 || !keys.includes(key)) return undefined;
  return renamedInto((JSON.parse(outcome.detailJson) as { changes?: unknown }).changes, key);
}

/**
 * Each item's person named beside their email (review 38b #4: History and conflicts said
 * "eve@example.com" where presence said "Eve Editor"), from the people store. `names` by email.
 */
export function nameActors(items: { actor: string; actorName?: string }[], names: ReadonlyMap<string, string>): void {
  for (const it of items) {
    const name = names.get(it.actor);
    if (name && name !== it.actor) it.actorName = name;
  }
}
