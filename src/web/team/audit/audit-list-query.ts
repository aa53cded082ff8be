/**
 * GET /api/audit: the trail, newest first, paged by cursor. A Record's history (table and record
 * given) is open to anyone who may read the table; everything else to admins (403 otherwise).
 */
import { infiniteQueryOptions } from "@tanstack/react-query";
import type { RecordValue } from "../../../shared/records";
import { api } from "../../api-client";
import { teamKeys } from "../team-keys";

export type AuditKind = "update" | "insert" | "delete-records" | "import" | "upload" | "restore-file" | "delete-file" | "storage-job" | "refused" | "sign-in-failed" | "people";

export interface AuditChange {
  key: RecordValue;
  before: Record<string, RecordValue>;
  after: Record<string, RecordValue>;
}

export interface AuditItem {
  seq: number;
  at: string;
  actor: string;
  /** The person's name, when the proxy knows them (people mode). */
  actorName?: string;
  actorKind?: string;
  address?: string;
  action: AuditKind | string;
  endpoint?: string;
  /** A refused change: the route it asked for (update, delete-records, upload, …). */
  asked?: string;
  table?: string;
  bucket?: string;
  keys: string[];
  keyCount: number;
  outcome?: "applied" | "refused" | "failed" | "unknown" | string;
  count?: number;
  message?: string;
  filter?: unknown;
  values?: unknown;
  changes?: AuditChange[];
  deleted?: unknown;
  records?: Record<string, RecordValue>[];
  /** A delete's `versions` are every version it removed (`size`: their bytes together). */
  file?: { key?: string; version?: string; versionedKey?: string; size?: number; restoredFrom?: string; versions?: { versionedKey: string; size?: number }[]; versionsOmitted?: number };
  beforeImagesOmitted?: number;
  /** The service made the change but could not read what it overwrote (those Records count in beforeImagesOmitted). */
  beforeImagesUnreadable?: boolean;
  /** In a Record's history: a change past the before-images' limit that may have changed it (not named). */
  partial?: boolean;
  detail?: unknown;
  /** Records of the entry not listed in `changes` (the list asked for fewer). */
  changesOmitted?: number;
  /** A filter nested too deep to keep as JSON (hundreds of levels), as its text. */
  filterText?: string;
  /** A storage job's state as answered, then as it ended ("done", "failed", "cancelled"). */
  job?: { state: string; done?: number; total?: number; error?: string | null };
  /** An import's counts of Records it added and updated. */
  /** Made by an Undo or Redo in the app, and of what ("undo: Import people.csv"). */
  undoOf?: string;
  inserted?: number;
  /** An import's: of the Records it updated, how many it really changed. */
  changed?: number;
  updated?: number;
  /** In a Record's history: this import added the Record. */
  added?: boolean;
  /** Records an import added past the 10,000 it names. */
  addedOmitted?: number;
  /** An import's added Records, in the whole trail's list (the first 100; `inserted` says how many). */
  addedKeys?: string[];
  /** An update that changed one Record's key: from what to what (the entry lists both keys). */
  renamed?: { from: string; to: string };
  /** In a Record's history: the key the Record had at this entry, when not the one asked for (before a change of its key). */
  recordKey?: string;
}

export interface AuditPage {
  items: AuditItem[];
  nextCursor: string | null;
}

/** The filters of GET /api/audit the app uses; empty strings are left out. */
export interface AuditFilters {
  table?: string;
  record?: string;
  bucket?: string;
  key?: string;
  actor?: string;
  kind?: string;
  since?: string;
  until?: string;
}

export function auditSearch(f: AuditFilters, cursor?: string | null, limit = 50, changes?: number): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== "") q.set(k, v);
  q.set("limit", String(limit));
  if (changes !== undefined) q.set("changes", String(changes));
  if (cursor) q.set("cursor", cursor);
  return q.toString();
}

/** `changes`: how many Records of each entry to fetch (the rest counted in `changesOmitted`). */
export const auditQueryOptions = (f: AuditFilters, limit = 50, changes?: number) =>
  infiniteQueryOptions({
    queryKey: teamKeys.audit(f),
    queryFn: ({ pageParam, signal }) => api<AuditPage>(`/api/audit?${auditSearch(f, pageParam, limit, changes)}`, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** Who, as people know each other: "Eve Editor (eve@example.com)", or the email alone (review 38b #4). */
export const whoText = (it: Pick<AuditItem, "actor" | "actorName">): string => (it.actorName ? `${it.actorName} (${it.actor})` : it.actor);
