/**
 * GET /api/audit: the trail, newest first, paged by cursor. Filters: table=<db>/<slug>,
 * record=<primary key>, bucket=, key=, actor=<email>, since, until (ISO times), kind (comma
 * list), limit (≤ 500), changes (how many Records of each entry to list; all when left out). A Record's history (table and record given) is open to anyone who may
 * read that table; everything else needs the admin role (403 otherwise).
 */
import type { Actor, Resource } from "../contract";
import { decide } from "../grants/permissions";
import type { AuditEntry } from "./audit-entry";
import type { AuditLog, AuditQuery } from "./audit-log";
import { parseIsoTime } from "./iso-time";
import { expandChanges } from "./record-changes";

export type AuditAnswer = { status: number; body: unknown };
const bad = (message: string): AuditAnswer => ({ status: 400, body: { error: "validation_error", subCode: 0, message } });

function time(raw: string | null, name: string): number | undefined | string {
  if (raw === null || raw === "") return undefined;
  return parseIsoTime(raw) ?? `${name} must be an ISO time such as 2026-11-25T10:00:00Z, on a date that exists (got "${raw}").`;
}

/**
 * The kinds `kind=` may name (an outcome is folded into its change, never listed alone). A
 * Record's "Restore this version" is recorded as the update it is.
 */
export const LISTED_KINDS = ["update", "insert", "delete-records", "import", "upload", "restore-file", "delete-file", "storage-job", "people", "refused", "sign-in-failed"] as const;

/** One entry as clients see it: the change with its outcome folded in. */
export function present(e: AuditEntry, outcome: AuditEntry | undefined, record?: string, maxChanges = Infinity) {
  const detail = JSON.parse(e.detailJson) as Record<string, unknown>;
  const out = outcome ? (JSON.parse(outcome.detailJson) as Record<string, unknown>) : {};
  const resource = e.resource ?? undefined;
  // Keys known only from the answer (an upload's, an update's when the upstream read them) are the outcome's.
  const keys = e.keys.length || !outcome ? e.keys : outcome.keys;
  const all = expandChanges(out.changes, record);
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
    table: resource?.startsWith("table:") ? resource.slice(6) : undefined,
    bucket: resource?.startsWith("bucket:") ? resource.slice(7) : undefined,
    keys: keys.slice(0, 100),
    keyCount: keys.length,
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
    file:
      e.kind === "upload" || e.kind === "restore-file"
        ? { key: out.key ?? detail.key, version: out.version, versionedKey: out.versionedKey, size: out.size ?? detail.size, ...(e.kind === "restore-file" ? { restoredFrom: detail.restoredFrom } : {}) }
        : e.kind === "delete-file" && detail.key
          ? // Every version the delete removed, as listed before it (where the upstream lists versions).
            { key: detail.key, size: detail.size, versions: detail.versions, versionsOmitted: detail.versionsOmitted }
          : detail.key
            ? { key: detail.key }
            : undefined,
    beforeImagesOmitted,
    // In a Record's history: a change past the before-images' limit that does not name this
    // Record may still have changed it (its values were not kept).
    partial: record !== undefined && (beforeImagesOmitted ?? 0) > 0 && !keys.includes(record) ? true : undefined,
    // What was asked (its own `outcome` was "pending" when it was written: the item's says how it went).
    detail: e.kind === "storage-job" || e.kind === "people" ? { ...detail, outcome: undefined } : undefined,
    // A storage job's state, files done and total: as answered, then as it ended.
    job: out.job,
    hash: e.hash,
  };
}

export async function answerAudit(log: AuditLog, actor: Actor, params: URLSearchParams): Promise<AuditAnswer> {
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
  const cursorRaw = params.get("cursor");
  const beforeSeq = cursorRaw ? Number(cursorRaw) : undefined;
  if (beforeSeq !== undefined && (!Number.isInteger(beforeSeq) || beforeSeq < 1)) return bad("cursor is the nextCursor of a previous page.");
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
  const rows = await log.list(q);
  const page = rows.slice(0, limit);
  const outcomes = await log.outcomesOf(page.map((e) => e.seq));
  return {
    status: 200,
    body: {
      items: page.map((e) => present(e, outcomes.get(e.seq), record, maxChanges)),
      nextCursor: rows.length > limit ? String(page[page.length - 1].seq) : null,
    },
  };
}
