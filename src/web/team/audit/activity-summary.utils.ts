/**
 * What an Activity entry about people or a storage job did, in words ("Disabled
 * bob@example.com", "Moved bob/a.txt → bob/b.txt"), from the `detail` the trail recorded (see
 * src/server/team/api/people-api.ts and people/cli.ts for people, auditor.ts for jobs). Other
 * kinds are told by their table, Records and diff instead.
 */
import { importCounts } from "../../records/import/import-plan.utils";
import { formatDateTime } from "../../ui/dates";
import type { AuditItem } from "./audit-list-query";

type Detail = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/** An endpoint as recorded ("PATCH /api/people/bob%40example.com"), readable. */
export function readableEndpoint(endpoint: string | undefined): string {
  if (!endpoint) return "";
  try {
    return decodeURIComponent(endpoint);
  } catch {
    return endpoint;
  }
}

/** "bucket:team-files" → "bucket team-files"; "table:demo/catalog" → "table demo/catalog". */
const resourceText = (r: unknown) => (typeof r === "string" ? r.replace(/^(table|bucket):/, "$1 ") : "a table or bucket");
const levelText = (l: unknown) => (l === "none" ? "no access" : (str(l) ?? "?"));

function peopleSummary(d: Detail, person: string | undefined): string {
  const who = person ?? str(d.email) ?? "someone";
  switch (d.action) {
    case "add":
      return `Added ${who}${str(d.role) ? ` as ${d.role as string}` : ""}${d.invite ? ", with an invite link" : ""}`;
    case "update":
    case "set-role":
    case "disable":
    case "enable": {
      const parts: string[] = [];
      if (d.disabled === true) parts.push(`Disabled ${who}`);
      if (d.disabled === false) parts.push(`Enabled ${who}`);
      if (str(d.role)) parts.push(`${parts.length ? "set their" : `Set ${who}'s`} role to ${d.role as string}`);
      if (typeof d.name === "string") parts.push(`${parts.length ? "renamed them" : `Renamed ${who}`} to "${d.name}"`);
      return parts.length ? parts.join("; ") : `Changed ${who} (nothing named)`;
    }
    case "grant":
      return `Set ${resourceText(d.resource)} to ${levelText(d.level)} for ${who}`;
    case "revoke-grant":
      return `Removed ${who}'s grant on ${resourceText(d.resource)} (back to their role)`;
    case "invite":
      return `Made a new invite link for ${who}`;
    case "reset-password":
      return `Reset ${who}'s password${d.invite ? ", with an invite link" : ""}`;
    case "end-sessions":
      return `Ended ${who}'s sessions`;
    case "end-session":
      return `Ended one of ${who}'s sessions`;
    case "change-password":
      return `${who} changed their password`;
    case "set-password":
      return `${who} set their password with ${d.link === "reset" ? "a reset" : "an invite"} link`;
    case "refused": {
      const asked = readableEndpoint(`${str(d.method) ?? ""} ${str(d.path) ?? ""}`.trim());
      return `Tried to change ${person ?? "people"}${asked ? ` (${asked})` : ""}`;
    }
    default:
      return `${str(d.action) ?? "Changed"} ${who}`;
  }
}

const VERBS: Record<string, string> = { move: "Moved", copy: "Copied", delete: "Deleted" };

function jobSummary(d: Detail, endpoint: string | undefined, job: AuditItem["job"]): string {
  const from = str(d.from);
  const verb = VERBS[d.action as string];
  if (!verb || from === undefined) return endpoint?.startsWith("DELETE ") ? "Cancelled a storage job" : "A storage job";
  if (job?.state === "cancelled") {
    // What was done stays done: said, not "Tried to delete" (800 of 28,800 files had gone).
    const to = d.action === "delete" ? "" : ` → ${d.to === "" ? "the top level" : (str(d.to) ?? "")}`;
    const of = typeof job.total === "number" ? ` of ${job.total.toLocaleString()}` : "";
    return `${verb} ${typeof job.done === "number" ? job.done.toLocaleString() : "some"}${of} files of ${from}${to}, then cancelled`;
  }
  // "" is the bucket's top level (a folder moved up to it), not a missing destination.
  const to = d.action === "delete" ? undefined : d.to === "" ? "the top level" : str(d.to);
  const files = Array.isArray(d.files) ? d.files.length : undefined;
  const count = files === undefined ? "" : ` (${files.toLocaleString()}${d.filesMore ? "+" : ""} file${files === 1 && !d.filesMore ? "" : "s"})`;
  const replaced = Array.isArray(d.replaced) ? d.replaced.length : 0;
  const replacing = replaced || d.replacedMore ? `, replacing ${replaced.toLocaleString()}${d.replacedMore ? "+" : ""} file${replaced === 1 && !d.replacedMore ? "" : "s"}` : "";
  return `${verb} ${from.endsWith("/") ? "the folder " : ""}${from}${to !== undefined ? ` → ${to}` : ""}${count}${replacing}`;
}

/** Each kind of entry in words, for the "What" column and the Kind filter. */
export const KIND_TEXT: Record<string, string> = {
  update: "Updated Records",
  insert: "Added Records",
  "delete-records": "Deleted Records",
  import: "Imported a CSV",
  upload: "Uploaded a file",
  "restore-file": "Restored a file's version",
  "delete-file": "Deleted a file",
  "storage-job": "Storage job",
  refused: "Refused",
  "sign-in-failed": "Failed sign-ins",
  people: "People and roles",
};

/** The summaries' leading verbs, for an entry that was not done ("Tried to add …"). */
const INFINITIVES: Record<string, string> = {
  Added: "add",
  Updated: "update",
  Uploaded: "upload",
  Imported: "import",
  Restored: "restore",
  Disabled: "disable",
  Enabled: "enable",
  Set: "set",
  Renamed: "rename",
  Removed: "remove",
  Made: "make",
  Reset: "reset",
  Ended: "end",
  Changed: "change",
  Moved: "move",
  Copied: "copy",
  Deleted: "delete",
  Cancelled: "cancel",
};

/** "Added bob as viewer" → "Tried to add bob as viewer": what was asked, not what happened. */
export function triedTo(summary: string): string {
  const [verb, ...rest] = summary.split(" ");
  const inf = INFINITIVES[verb];
  return inf ? `Tried to ${[inf, ...rest].join(" ")}` : summary;
}

/** The entry's "What", or undefined where the kind alone says it (its diff tells the rest). */
/**
 * An import's counts in words, as its result said them: "Imported a CSV: 1,199,500 Records added,
 * 250 changed, …" (the list's Record count is of the Records it names, at most 10,000).
 */
export function importSummary(it: Pick<AuditItem, "inserted" | "updated" | "changed">): string | undefined {
  if (typeof it.inserted !== "number" || typeof it.updated !== "number") return undefined;
  return `Imported a CSV: ${importCounts({ inserted: it.inserted, updated: it.updated, changed: it.changed })}`;
}

/** What a refused change asked for, by the route the trail names (the item's `asked`). */
const REFUSED_ASKED: Record<string, string> = {
  // Reads refused for a grant (review 53b #6: they read "Refused" alone).
  query: "Tried to read Records",
  "query-data-api": "Tried to read Records",
  fields: "Tried to read a table's Fields",
  distinct: "Tried to read value suggestions",
  "get-file": "Tried to open a file",
  "sign-url": "Tried to get a signed URL",
  "sign-many": "Tried to get signed URLs",
  list: "Tried to list a folder",
  "storage-search": "Tried to search a bucket",
  "storage-versions": "Tried to read a file's versions",
  "storage-job": "Tried to follow a storage job",
  update: "Tried to update Records",
  insert: "Tried to add Records",
  "delete-records": "Tried to delete Records",
  import: "Tried to import a CSV",
  upload: "Tried to upload a file",
  "upload-complete": "Tried to upload a file",
  "upload-start": "Tried to start an upload",
  "upload-part": "Tried to send a part of an upload",
  "upload-session": "Tried to discard an unfinished upload",
  delete: "Tried to delete a file",
  "storage-job-start": "Tried to start a storage job",
  "storage-job-cancel": "Tried to cancel a storage job",
  "storage-restore": "Tried to restore a file's version",
};

export function activitySummary(it: Pick<AuditItem, "action" | "keys" | "detail" | "endpoint" | "outcome" | "inserted" | "updated" | "changed" | "asked" | "job" | "count">): string | undefined {
  if (it.action === "import" && it.outcome === "applied") return importSummary(it);
  const d = it.detail && typeof it.detail === "object" ? (it.detail as Detail) : undefined;
  // A change refused for the person's role or grant: what was asked, not only "Refused".
  if (it.action === "refused") {
    const asked = REFUSED_ASKED[it.asked ?? ""];
    return asked ? `${asked} (refused)` : undefined;
  }
  const said = !d ? undefined : it.action === "people" ? peopleSummary(d, it.keys[0]) : it.action === "storage-job" ? jobSummary(d, it.endpoint, it.job) : undefined;
  // Refused or failed: it did not happen, and must not read as if it had (nor an update that
  // matched nothing: review 47b #2 read those as "Updated Records").
  const notDone = it.outcome === "failed" || it.outcome === "refused" || (it.outcome === "applied" && it.count === 0 && ["update", "delete-records"].includes(it.action));
  const text = said ?? (notDone ? KIND_TEXT[it.action] : undefined);
  return text && notDone ? triedTo(text) : said;
}

/**
 * An entry that names no Record (an update that matched nothing, such as a conflict): the one
 * Record its filter asked for, when the filter is a single "equal" ("employee_id = E00011").
 */
export function askedRecord(detail: unknown): string | undefined {
  const f = detail && typeof detail === "object" ? (detail as Detail).filter : undefined;
  const conds = f && typeof f === "object" ? (f as { and?: unknown; or?: unknown }).and ?? (f as { or?: unknown }).or : undefined;
  // A cell edit's filter is the key AND the old value: the first condition names the Record.
  const first = Array.isArray(conds) ? (conds[0] as { key?: unknown; operator?: unknown; value?: unknown } | undefined) : undefined;
  if (!first || first.operator !== "equal" || typeof first.key !== "string" || (typeof first.value !== "string" && typeof first.value !== "number")) return undefined;
  return `${first.key} = ${first.value}`;
}

/**
 * A file version as people can tell it: the local service's versions are the millisecond they
 * were written ("1795750369973"), shown as that moment to the second; others as they are.
 */
export function versionText(version: string): string {
  return /^\d{13}$/.test(version) ? `the version of ${formatDateTime(Number(version), { seconds: true })}` : `version ${version}`;
}

/** A restore's source ("v1795750321832/docs/a.txt"), in words: "restored the version of …". */
export function restoredText(restoredFrom: string | undefined): string | undefined {
  const m = restoredFrom === undefined ? null : /^v([^/]+)\//.exec(restoredFrom);
  return m ? `restored ${versionText(m[1])} as the newest` : undefined;
}
