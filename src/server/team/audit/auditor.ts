/**
 * What the proxy asks of the audit trail (the forward path knows nothing of hash chains):
 * `beforeChange` is called before a change is forwarded and must succeed (fail closed: the
 * caller answers 503 and forwards nothing when it throws). What an update overwrites (primary
 * key and the Fields being set of the matching Records, up to 10,000) the upstream answers from
 * inside the update when it has the `beforeImages` extension (asked by a header `beforeChange`
 * returns); otherwise, and for Record deletes, it is read here before forwarding. `finish`
 * records the outcome before the answer goes back, and gives the answer without those images.
 * `refused` and `signInFailed` record what was turned away.
 */
import os from "node:os";
import { BEFORE_IMAGES_HEADER, BEFORE_IMAGES_MAX, type BeforeImages, deleteBodySchema } from "../../../shared/record-writes";
import { encodeKeyPath, parseObjectKey } from "../../../shared/storage";
import type { Actor } from "../contract";
import { keyRefused, type Upstream, UpstreamFailure } from "../../proxy/forward";
import type { NewAuditEntry } from "./audit-entry";
import type { AuditLog } from "./audit-log";
import { jsonObjectOf } from "../../../shared/json-text";
import { normalizeEmail } from "../store/team-store";
import { recordKeyText, updateBodySchema } from "../../../shared/records";
import { deeperThan, encodeDeep } from "../../../shared/deep-json";
import { keysPinnedBy, packChanges, packImported } from "./record-changes";

export interface ChangeRequest {
  /** Who: a person, a shared mode, or a command on this machine (`npm run import`). */
  actor: Pick<Actor, "email"> & { kind: string };
  address: string;
  method: string;
  /** The route's endpoint name (update, insert, upload, …). */
  endpoint: string;
  /** Path under /v0 as sent upstream (with its query). */
  upstreamPath: string;
  /** `db/slug` or the bucket. */
  target?: string;
  body?: Buffer;
  /** The body as read once by the proxy (shared/json-text.ts), so that it is not parsed again here. */
  json?: unknown;
  /** Content length of a streamed body (uploads, imports). */
  size?: number;
  /** The app's Undo or Redo that made it ("undo: Import people.csv"), when it says so. */
  undoOf?: string;
  /**
   * An upload's key, read from its body as far as that field: for one refused before it is
   * forwarded, or set as it goes to the upstream (for one the upstream refuses).
   */
  uploadKey?: string;
}

/** A change turned away before it was forwarded; it may carry no session at all (a cross-site request). */
export type RefusedRequest = Omit<ChangeRequest, "actor"> & { actor?: ChangeRequest["actor"] };

/** A change that was applied, as recorded: what the live stream turns into an event. */
export interface AppliedChange {
  kind: NewAuditEntry["kind"];
  resource: string | null;
  keys: string[];
  /** The request's side (filter, values, records, key). */
  detail: Record<string, unknown>;
  /** The outcome's side (count, changes, deleted, key, version). */
  out: Record<string, unknown>;
  /**
   * A storage job still running when answered: settles when it has ended (its outcome then
   * recorded), with the change as it ended; nothing has moved before (the live event waits for it).
   */
  ended?: Promise<AppliedChange | undefined>;
}

/** What `beforeChange` gives the forward path: headers to add upstream, and the step after the answer. */
export interface PendingChange {
  /** Sent with the change (the before-images extension, when the upstream has it). */
  upstreamHeaders: Record<string, string>;
  /**
   * Records the outcome; gives back the change when it was applied, and the answer for the
   * client (the upstream's, without the before-images asked for the trail).
   */
  finish(status: number, headers: Record<string, string | string[] | undefined>, body: Buffer): Promise<{ applied?: AppliedChange; answer: Buffer }>;
  /**
   * The proxy answered a failure itself (502, 503, 504, 408): recorded as failed when the change
   * cannot have reached the upstream (`applied` false), else as unknown, with the proxy's words.
   * Gives back the change when it may have been made (unknown), for a live event that has the
   * others read it again.
   */
  failed(status: number, message: string, applied: false | undefined): Promise<AppliedChange | undefined>;
}

export interface Auditor {
  beforeChange(c: ChangeRequest): Promise<PendingChange>;
  refused(c: RefusedRequest, message: string): Promise<void>;
  /**
   * A change the proxy could not send on (the embedded service restarting or down): recorded as
   * asked and failed, with why. Best effort, like a refusal: nothing was changed either way.
   */
  unanswered(c: ChangeRequest, status: number, message: string): Promise<void>;
  /**
   * A change to people, roles, grants or sessions (the team layer's endpoints): recorded before
   * it is made (throws when it cannot be: nothing is changed then), and the returned step
   * records its outcome before the answer.
   */
  peopleChange(c: { actor: Pick<Actor, "email"> & { kind: string }; address: string; method: string; path: string; what: { action: string; email?: string; detail: Record<string, unknown> } }): Promise<(status: number, message?: string) => Promise<void>>;
  /**
   * A failed sign-in, counted per account and address: the first of a minute is written at once
   * (count 1), the rest of that minute as one entry with their count when it ends.
   */
  signInFailed(email: string, address: string, endpoint?: WrongPasswordAt): Promise<void>;
  /** Writes what is still being counted (at shutdown, and for tests). */
  flush(): Promise<void>;
  record(e: Omit<NewAuditEntry, "at">): Promise<void>;
  readonly log: AuditLog;
}

/** `v<version>/<key>` as its version (text, as entries keep it) and key, by the shared key parser; undefined for a plain key. */
function splitVersioned(versioned: string): { version: string; key: string } | undefined {
  const p = parseObjectKey(versioned);
  return p.ok && p.value.version !== undefined ? { version: String(p.value.version), key: p.value.key } : undefined;
}

/** A restore's path: the version it restores (`restoredFrom`), and that version's number and key. */
function restoreOf(c: { upstreamPath: string }): { restoredFrom: string; fromVersion?: string; key?: string } {
  const restoredFrom = objectKeyOf(c);
  const v = splitVersioned(restoredFrom);
  // A path without a version is refused by the service; it is still about that key (review 46a #6).
  return { restoredFrom, ...(v ? { fromVersion: v.version, key: v.key } : restoredFrom ? { key: restoredFrom } : {}) };
}

const KIND: Record<string, NewAuditEntry["kind"]> = {
  update: "update",
  insert: "insert",
  "delete-records": "delete-records",
  import: "import",
  upload: "upload",
  delete: "delete-file",
  "storage-job-start": "storage-job",
  "storage-job-cancel": "storage-job",
  "storage-restore": "restore-file",
  // The last step of a resumable upload is when the file appears: recorded like an upload.
  "upload-complete": "upload",
};

export const CHANGE_ENDPOINTS = new Set(Object.keys(KIND));

/** Who a command on this machine is in the trail: the command and the account that ran it. */
export const commandActor = (command: string) => ({ email: `${command} (${os.userInfo().username})`, kind: "command" });

/**
 * The app's mark on a request an Undo, a Redo or a History restore made (UNDO_HEADER: "undo: <what>",
 * "restore: <what>", URI-encoded), as recorded beside the change; anything else is ignored. At
 * most 200 characters.
 */
export function undoOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== "string") return undefined;
  let text: string;
  try {
    text = decodeURIComponent(header);
  } catch {
    return undefined;
  }
  return /^(undo|redo|restore): \S/.test(text) ? text.slice(0, 200) : undefined;
}

/** Failed sign-ins of one account from one address within this long are one entry with their count. */
export const SIGN_IN_WINDOW_MS = 60_000;
/** Where a wrong password was given: signing in, or a session changing its own password (review 46a #2). */
export type WrongPasswordAt = "POST /login" | "POST /api/me/password" | "GET /auth/oidc/callback";

interface FailureWindow {
  account: string;
  address: string;
  endpoint: WrongPasswordAt;
  since: number;
  /** Failures after the first (which was written at once). */
  count: number;
  timer: NodeJS.Timeout;
}

/** The object key a storage path names (/v0/storage/<op>/<bucket>/<key…>), decoded. */
const objectKeyOf = (c: { upstreamPath: string }) => decodeURIComponent(c.upstreamPath.split("?")[0].split("/").slice(5).join("/"));
/** The keys a storage job names: its source, and its destination when it has one. */
const jobKeys = (body: Record<string, unknown>): string[] => (typeof body.from === "string" ? [body.from, ...(typeof body.to === "string" ? [body.to] : [])] : []);

/**
 * A change to people, roles, grants or sessions, by the API or by `npm run people`: recorded
 * before it is made (throws when it cannot be: nothing is to be changed then); the returned step
 * records how it ended.
 */
export async function recordPeopleChange(
  log: AuditLog,
  who: { email: string; kind: string },
  address: string,
  endpoint: string,
  what: { action: string; email?: string; detail: Record<string, unknown> },
  onError?: (e: Error) => void,
  /** How the outcome is written (the proxy's: kept until the store takes it); default, once. */
  appendOutcome?: (e: NewAuditEntry) => Promise<void>,
): Promise<(status: number, message?: string) => Promise<void>> {
  const by = { actorEmail: who.email, actorKind: who.kind, address, endpoint: endpoint.slice(0, 500) };
  const keys = what.email ? [normalizeEmail(what.email)] : [];
  const change = await log.append({ ...by, at: Date.now(), kind: "people", resource: null, keys, detail: { action: what.action, ...what.detail, outcome: "pending" } });
  return async (status, message) => {
    const out = { status, outcome: status < 300 ? "applied" : status === 403 ? "refused" : "failed", ...(message ? { message } : {}) };
    const entry: NewAuditEntry = { ...by, at: Date.now(), kind: "outcome", resource: null, keys: [], detail: out, ref: change.seq };
    if (appendOutcome) return appendOutcome(entry);
    try {
      await log.append(entry);
    } catch (e) {
      // The change is made; the entry before it says what was asked.
      onError?.(e as Error);
    }
  };
}

/**
 * Fields of a request nested deeper than this are kept as their JSON text (`<field>Text`): the
 * interface allows filters 10,000 levels deep, which JSON.stringify cannot write (deep-json.ts).
 * Only for an entry that failed to be written so (a RangeError): walking every request's fields
 * would cost each change (an insert of 10,000 Records is ~100,000 values).
 */
const KEPT_DEPTH = 200;
function keepDeep(detail: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(detail)) {
    if (!deeperThan(v, KEPT_DEPTH)) continue;
    delete detail[k];
    detail[`${k}Text`] = encodeDeep(v);
  }
  return detail;
}

/** A job's state and counts as the upstream answers them (jobs extension), or undefined. */
function jobOf(v: unknown): { id?: unknown; state: string; done?: unknown; total?: unknown; error?: unknown } | undefined {
  const j = v as Record<string, unknown> | undefined;
  if (!j || typeof j !== "object" || typeof j.state !== "string") return undefined;
  return { id: j.id, state: j.state, done: j.done, total: j.total, error: j.error };
}
/** How often a running storage job is asked how it goes: at first, and at most. */
const JOB_POLL_MS = 250;
const JOB_POLL_MAX_MS = 5_000;
/** How often an outcome the store refused is tried again. */
const OWED_RETRY_MS = 1_000;

/** A file delete lists this many of the versions it removes (and how many more there were). */
const DELETED_VERSIONS_MAX = 1_000;
/** A folder job (move, copy, delete of a prefix) names at most this many of the files it takes. */
const JOB_FILES_MAX = 1_000;

/** A move with overwrite names the versions of at most this many of the files it replaces. */
const REPLACED_VERSIONS_OF = 20;

/** A refused insert keeps this many of its Records (and how many there were). */
const REFUSED_RECORDS = 100;

/**
 * The keys of the Records an insert asks for: a Record that is not an object or has no key is
 * left out (the service refuses the insert, saying which; the trail records what was asked).
 */
const isFilter = (f: unknown): boolean => !!f && typeof f === "object" && !Array.isArray(f);

function keysOfRecords(records: unknown[], pk: string): string[] {
  const keys: string[] = [];
  for (const r of records) {
    const key = r && typeof r === "object" ? (r as Record<string, unknown>)[pk] : undefined;
    if (key !== undefined && key !== null) keys.push(recordKeyText(key));
  }
  return keys;
}

/** A request's body (read as the service reads it) or an answer, as an object; {} when it is none. */
const parse = (body: Buffer | undefined): Record<string, unknown> => jsonObjectOf(body) ?? {};
/** A change's body: as the proxy read it, when it did. */
const bodyOf = (c: Pick<ChangeRequest, "body" | "json">): Record<string, unknown> =>
  "json" in c ? (c.json && typeof c.json === "object" && !Array.isArray(c.json) ? (c.json as Record<string, unknown>) : {}) : parse(c.body);

/** The service's before-images answer, or undefined when it is not one. */
function imagesOf(v: unknown): BeforeImages | undefined {
  const b = v as BeforeImages | undefined;
  return b && typeof b === "object" && Array.isArray(b.fields) && Array.isArray(b.rows) && b.rows.every(Array.isArray) ? b : undefined;
}

/** Records read by a query (one object each) as before-images: `fields` (primary key first), a row each. */
const imagesFrom = (items: Record<string, unknown>[], fields: string[]): BeforeImages => ({ fields, rows: items.map((r) => fields.map((f) => r[f] ?? null)) });

export interface AuditorOptions {
  log: AuditLog;
  /** What the trail reads of the upstream (before-images, file versions, a job's state). */
  upstream: Pick<Upstream, "getJson" | "postJson">;
  /** How the upstream is named in messages ("The service at host:port"), as the forward path names it. */
  upstreamName?: string;
  /** A table's primary key, and whether the upstream answers updates with before-images. */
  tableOf(db: string, table: string): Promise<{ primaryKey?: string; beforeImages: boolean; deletedImages?: boolean }>;
  /** An import was applied: it may have made a table that `tableOf` has not seen. */
  tablesChanged?(): void;
  onError?(e: Error): void;
}

export function createAuditor(opts: AuditorOptions): Auditor {
  const { log, upstream } = opts;
  const base = (c: RefusedRequest) => ({
    actorEmail: c.actor?.email ?? "(not signed in)",
    actorKind: c.actor?.kind ?? "unknown",
    address: c.address,
    endpoint: `${c.method} ${c.upstreamPath.split("?")[0]}`.slice(0, 500),
  });
  const resourceOf = (c: RefusedRequest) =>
    !c.target ? null : c.upstreamPath.startsWith("/v0/record/") ? `table:${c.target}` : `bucket:${c.target}`;

  /** The Records a filter picks, their primary key and the named Fields (all of them when none are named). */
  async function readMatching(c: ChangeRequest, filter: unknown, fields: string[] | undefined, pk: string) {
    const [db, table] = (c.target ?? "/").split("/");
    const select = fields ? [pk, ...fields.filter((f) => f !== pk)] : undefined;
    const res = await upstream.postJson(`/v0/record/${encodeURIComponent(db)}/${encodeURIComponent(table)}/query`, {
      filter,
      ...(select ? { select } : {}),
      limit: BEFORE_IMAGES_MAX,
    });
    // Refused as a request (400, 404): the change itself is refused the same way, and says why.
    // The upstream failing (5xx): what the change would overwrite cannot be known, so it is not
    // sent (it was, and applied, with nothing kept of what it overwrote: review 29a #1).
    if (res.status === 401) throw keyRefused(opts.upstreamName ?? "The upstream");
    if (res.status >= 500) {
      // A 503 stays one, with when to try again (review 46a #4: a 502 without Retry-After).
      const failure = new UpstreamFailure(res.status === 503 ? 503 : 502, `The upstream answered HTTP ${res.status} when asked for the Records this change would overwrite, so the change was not sent (the activity log must keep what it overwrites). Try again in a moment.`);
      const wait = Number(res.headers["retry-after"]);
      if (failure.status === 503 && Number.isInteger(wait) && wait > 0) failure.retryAfterS = wait;
      throw failure;
    }
    if (res.status !== 200) return undefined;
    const body = res.body as { items?: Record<string, unknown>[]; count?: number };
    return { items: body.items ?? [], count: body.count ?? body.items?.length ?? 0 };
  }

  /**
   * A resumable upload's session, for the key it writes (read as the key holder: it answers any
   * owner), so that its steps refused or failed are found by that key (review 38a #2).
   */
  async function uploadSessionOf(c: { upstreamPath: string }): Promise<{ key?: unknown; size?: unknown; completed?: unknown } | undefined> {
    const session = /^\/v0\/storage\/uploads\/([^/]+)\/([^/?]+)/.exec(c.upstreamPath);
    const res = session ? await upstream.getJson(`/v0/storage/uploads/${session[1]}/${session[2]}`).catch(() => undefined) : undefined;
    return res?.status === 200 ? (res.body as { key?: unknown; size?: unknown; completed?: unknown }) : undefined;
  }
  /** A key's versions as the upstream lists them (the versions extension), or undefined without it. */
  async function versionsOf(bucket: string, key: string): Promise<{ versionedKey?: unknown; size?: unknown }[] | undefined> {
    const path = `/v0/storage/versions/${encodeURIComponent(bucket)}/${encodeKeyPath(key)}`;
    const res = await upstream.getJson(path).catch(() => undefined);
    if (res?.status !== 200) return undefined;
    return (res.body as { items?: { versionedKey?: unknown; size?: unknown }[] }).items ?? [];
  }
  /**
   * The keys under a folder (`prefix` ends in "/"), at most `max`, from the search extension (any
   * depth; it finds names containing the text, so the prefix is checked here); undefined when the
   * upstream cannot say (the entry goes on naming the folder alone).
   */
  async function filesUnder(bucket: string, prefix: string, max: number): Promise<{ keys: string[]; more: boolean } | undefined> {
    const keys: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const q = new URLSearchParams({ q: prefix, limit: "1000", ...(cursor ? { cursor } : {}) });
      const res = await upstream.getJson(`/v0/storage/search/${encodeURIComponent(bucket)}?${q}`).catch(() => undefined);
      if (res?.status !== 200) return page === 0 ? undefined : { keys, more: true };
      const body = res.body as { items?: { key?: unknown }[]; nextCursor?: string | null };
      for (const it of body.items ?? []) {
        if (typeof it.key !== "string" || !it.key.startsWith(prefix)) continue;
        if (keys.length === max) return { keys, more: true };
        keys.push(it.key);
      }
      cursor = body.nextCursor ?? null;
      if (!cursor) return { keys, more: false };
    }
    return { keys, more: true };
  }
  /** Keys with their versions and sizes, as listed now (the first REPLACED_VERSIONS_OF keys; the rest by key alone). */
  const withVersions = async (bucket: string, keys: string[]) =>
    Promise.all(
      keys.map(async (key, i) => {
        if (i >= REPLACED_VERSIONS_OF) return { key };
        const versions = await versionsOf(bucket, key);
        return { key, ...(versions ? { versions: versions.slice(0, DELETED_VERSIONS_MAX).map((v) => ({ versionedKey: v.versionedKey, size: v.size })) } : {}) };
      }),
    );
  /**
   * What a move with `overwrite` will replace: the destinations that exist, each with every
   * version (a move removes them all: they are not kept as older versions of the moved file),
   * as listed before the job starts. `sources` are the folder's files (undefined for one key).
   */
  async function replacedBy(bucket: string, from: string, to: string, sources: string[] | undefined): Promise<Record<string, unknown> | undefined> {
    if (sources === undefined) {
      const versions = await versionsOf(bucket, to);
      return versions?.length ? { replaced: await withVersions(bucket, [to]) } : undefined;
    }
    // The top level is every folder's parent, onto which the service refuses `overwrite`.
    if (to === "") return undefined;
    const there = await filesUnder(bucket, to, JOB_FILES_MAX * 5);
    if (!there) return undefined;
    const have = new Set(there.keys);
    const existing = sources.map((k) => to + k.slice(from.length)).filter((k) => have.has(k));
    if (!existing.length && !there.more) return undefined;
    return { replaced: await withVersions(bucket, existing), ...(there.more ? { replacedMore: true } : {}) };
  }
  /** The size of one version, from the versions extension; undefined when it cannot say (the entry goes on without it). */
  async function sizeOfVersion(bucket: string, key: string, versioned: string): Promise<number | undefined> {
    const size = (await versionsOf(bucket, key))?.find((i) => i.versionedKey === versioned)?.size;
    return typeof size === "number" ? size : undefined;
  }

  /**
   * What a refused change asked for, from its request alone (nothing is read upstream for it):
   * the filter and values, the Records (the first REFUSED_RECORDS, and how many) and their keys,
   * a file's key, a job's source and destination. A streamed body (an upload) is not read.
   */
  async function attempted(c: RefusedRequest): Promise<{ detail: Record<string, unknown>; keys: string[] }> {
    const body = bodyOf(c);
    const detail: Record<string, unknown> = {};
    let keys: string[] = [];
    if (c.endpoint === "delete") {
      const key = objectKeyOf(c);
      detail.key = key;
      keys = [key];
    } else if (c.endpoint === "upload" && c.uploadKey !== undefined) {
      detail.key = c.uploadKey;
      keys = [c.uploadKey];
    } else if (c.endpoint === "update" || c.endpoint === "delete-records" || c.endpoint === "insert") {
      if (body.filter !== undefined) detail.filter = body.filter;
      if (Array.isArray(body.values)) detail.values = body.values;
      if (Array.isArray(body.records)) {
        const records = body.records as Record<string, unknown>[];
        detail.records = records.slice(0, REFUSED_RECORDS);
        detail.recordCount = records.length;
        const [db, table] = (c.target ?? "/").split("/");
        const pk = (await opts.tableOf(db, table).catch(() => undefined))?.primaryKey;
        if (pk) keys = keysOfRecords(records.slice(0, BEFORE_IMAGES_MAX), pk);
      }
    } else if (c.endpoint === "upload-complete" || c.endpoint === "upload-part" || (c.endpoint === "upload-session" && c.method === "DELETE")) {
      const key = (await uploadSessionOf(c))?.key;
      if (typeof key === "string") {
        detail.key = key;
        keys = [key];
      }
    } else if (c.endpoint === "storage-restore") {
      // The key it would have written (review 38a #2: recorded without one).
      const restore = restoreOf(c);
      Object.assign(detail, restore);
      keys = restore.key === undefined ? [] : [restore.key];
    } else if (c.body) {
      Object.assign(detail, body);
      // A resumable upload's start names its key; a job its paths.
      keys = c.endpoint === "upload-start" && typeof body.key === "string" ? [body.key] : jobKeys(body);
    }
    if (c.size !== undefined && !c.body) detail.requestBytes = c.size;
    return { detail, keys };
  }

  /**
   * Follows a storage job until it ends, then records how (one more outcome of the change that
   * started it, the newest: the one clients see). A proxy stopped first leaves the job's answer
   * (running) as its last word; so does a job the upstream forgets.
   */
  const jobWatches = new Set<NodeJS.Timeout>();
  /** Follows a running job until it ends, records how it ended, and gives that outcome (undefined: no longer known). */
  function watchJob(c: ChangeRequest, resource: string | null, changeSeq: number, bucket: string, id: string): Promise<Record<string, unknown> | undefined> {
    let wait = JOB_POLL_MS;
    return new Promise((settle) => {
      const next = () => {
        const timer = setTimeout(async () => {
          jobWatches.delete(timer);
          const res = await upstream.getJson(`/v0/storage/jobs/${encodeURIComponent(bucket)}/${encodeURIComponent(id)}`).catch(() => undefined);
          if (res?.status === 404) return settle(undefined);
          const job = res?.status === 200 ? jobOf(res.body) : undefined;
          if (!job || job.state === "running") {
            wait = Math.min(wait * 2, JOB_POLL_MAX_MS);
            return next();
          }
          // Cancelled: what was done stays done (it read as "failed", nothing deleted, after 800 files went).
          const out = { status: 200, outcome: job.state === "done" ? "applied" : job.state === "cancelled" ? "cancelled" : "failed", job, ...(typeof job.error === "string" ? { message: job.error } : {}) };
          await appendOutcome({ ...base(c), at: Date.now(), kind: "outcome", resource, keys: [], detail: out, ref: changeSeq });
          settle(out);
        }, wait);
        timer.unref();
        jobWatches.add(timer);
      };
      next();
    });
  }

  /**
   * Outcomes of changes already made that the store refused (and refused again without what was
   * overwritten): kept here, in order, and written as soon as it takes them (review 32a #1). Until
   * then no further change is let through (beforeChange throws: fail closed), so at most the
   * changes in flight at that moment wait for their outcome here rather than in the trail.
   */
  const owed: { entry: NewAuditEntry; slim?: (e: Error) => Record<string, unknown> }[] = [];
  let owedRetry: NodeJS.Timeout | undefined;
  let lastOwedError: Error | undefined;
  let paying: Promise<boolean> | undefined;
  /**
   * Writes what is owed, oldest first; false (lastOwedError says why) when the store still
   * refuses. One at a time: the retry timer and a change asking at once wrote an entry twice.
   */
  function payOwed(): Promise<boolean> {
    paying ??= payOwedNow().finally(() => (paying = undefined));
    return paying;
  }
  async function payOwedNow(): Promise<boolean> {
    while (owed.length) {
      const { entry, slim } = owed[0];
      try {
        await log.append(entry);
      } catch (e) {
        try {
          if (!slim) throw e;
          await log.append({ ...entry, detail: slim(e as Error) });
        } catch (again) {
          lastOwedError = again as Error;
          return false;
        }
      }
      owed.shift();
    }
    lastOwedError = undefined;
    return true;
  }
  /** Why a change is refused while an outcome is owed: the store's own error, for trailRefusal to word. */
  function owedRefusal(): Error {
    const why = lastOwedError;
    return Object.assign(new Error(`the outcome of an earlier change is not written yet (${why?.message ?? "the store refuses it"})`), { code: (why as { code?: unknown } | undefined)?.code });
  }
  function retryOwed() {
    if (owedRetry) return;
    owedRetry = setTimeout(async () => {
      owedRetry = undefined;
      if (!(await payOwed())) retryOwed();
    }, OWED_RETRY_MS);
    owedRetry.unref();
  }
  /**
   * An outcome: written, else (`slim`) without what was overwritten, else owed. Never throws: the
   * change it ends is made, and its answer goes back.
   */
  async function appendOutcome(entry: NewAuditEntry, slim?: (e: Error) => Record<string, unknown>): Promise<void> {
    if (owed.length === 0 || (await payOwed())) {
      try {
        return void (await log.append(entry));
      } catch (e) {
        opts.onError?.(e as Error);
        if (slim) {
          try {
            return void (await log.append({ ...entry, detail: slim(e as Error) }));
          } catch (again) {
            lastOwedError = again as Error;
          }
        } else lastOwedError = e as Error;
      }
    }
    owed.push({ entry, slim });
    opts.onError?.(new Error(`the outcome of change #${entry.ref} (${entry.kind} ${entry.resource ?? ""}) could not be written; kept in memory and tried again every ${OWED_RETRY_MS / 1000} s, and no change is let through until it is written`));
    retryOwed();
  }

  /** Appends `e`; one JSON.stringify cannot write (nested too deep) again with such fields as text. */
  async function appendKept(e: NewAuditEntry) {
    try {
      return await log.append(e);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      return log.append({ ...e, detail: keepDeep({ ...e.detail }) });
    }
  }

  // Failed sign-ins being counted, per account and address (a guessing run is a few entries, not thousands).
  const failures = new Map<string, FailureWindow>();
  async function appendFailures(w: Pick<FailureWindow, "account" | "address" | "endpoint">, count: number, since: number, until: number) {
    try {
      await log.append({ actorEmail: w.account, actorKind: "unknown", address: w.address, endpoint: w.endpoint, at: until, kind: "sign-in-failed", resource: null, keys: [], detail: { count, since: new Date(since).toISOString() } });
    } catch (e) {
      opts.onError?.(e as Error);
    }
  }
  async function writeFailures(k: string, w: FailureWindow) {
    clearTimeout(w.timer);
    if (failures.get(k) === w) failures.delete(k);
    if (w.count > 0) await appendFailures(w, w.count, w.since, Date.now());
  }

  return {
    log,
    async record(e) {
      await log.append({ ...e, at: Date.now() });
    },
    async beforeChange(c) {
      // An earlier change's outcome is still owed to the trail: nothing more until it is written.
      if (owed.length && !(await payOwed())) throw owedRefusal();
      const kind = KIND[c.endpoint] ?? "update";
      const body = bodyOf(c);
      const resource = resourceOf(c);
      const detail: Record<string, unknown> = {};
      let keys: string[] = [];
      let pk: string | undefined;
      // What an update overwrote (column by column), and what a Record delete removed.
      let images: BeforeImages | undefined;
      let deleted: Record<string, unknown>[] | undefined;
      // The upstream reads what an update overwrites in the update's own transaction, and says so
      // in its answer: no read of ours before it (which another writer could overtake).
      let upstreamBefore = false;
      if (c.endpoint === "update" || c.endpoint === "delete-records" || c.endpoint === "insert" || c.endpoint === "import") {
        const [db, table] = (c.target ?? "/").split("/");
        const info = await opts.tableOf(db, table);
        pk = info.primaryKey;
        // An import updates the Records its file names: the upstream reads them as it does for an update.
        // A Record delete's: the Records it removed, read in its own transaction (review 48a #1: read
        // here before forwarding, a Record added meanwhile and removed by the delete was missed).
        upstreamBefore = (info.beforeImages && (c.endpoint === "update" || c.endpoint === "import")) || (info.deletedImages === true && c.endpoint === "delete-records");
      }
      if (c.endpoint === "update" && pk) {
        const values = Array.isArray(body.values) ? (body.values as { key: string; value: unknown }[]) : [];
        detail.filter = body.filter;
        detail.values = values;
        // A body the service refuses (400: no filter, a bad value list, an unknown property, by the
        // contract both share): nothing is read for it, so it names no Records.
        const read = upstreamBefore || !isFilter(body.filter) || !updateBodySchema.safeParse(body).success ? undefined : await readMatching(c, body.filter, values.map((v) => v.key), pk);
        if (read) {
          images = imagesFrom(read.items, [pk, ...values.map((v) => v.key).filter((k) => k !== pk)]);
          keys = read.items.map((r) => recordKeyText(r[pk as string]));
          if (read.count > read.items.length) detail.beforeImagesOmitted = read.count - read.items.length;
        } else if (upstreamBefore) keys = (keysPinnedBy(body.filter, pk) ?? []).slice(0, BEFORE_IMAGES_MAX);
      } else if (c.endpoint === "delete-records" && pk) {
        detail.filter = body.filter;
        detail.expectedCount = body.expectedCount;
        // A body the service refuses (no filter, a bad expectedCount, an unknown property: the contract
        // both share) is read for nothing: reading "every Record" for it named them all, and put it in
        // every Record's history (review 38a #1).
        const read = !upstreamBefore && isFilter(body.filter) && deleteBodySchema.safeParse(body).success ? await readMatching(c, body.filter, undefined, pk) : undefined;
        if (read) {
          deleted = read.items;
          keys = read.items.map((r) => recordKeyText(r[pk as string]));
          if (read.count > read.items.length) detail.beforeImagesOmitted = read.count - read.items.length;
        } else if (upstreamBefore) keys = (keysPinnedBy(body.filter, pk) ?? []).slice(0, BEFORE_IMAGES_MAX);
      } else if (c.endpoint === "insert") {
        const records = Array.isArray(body.records) ? (body.records as Record<string, unknown>[]) : [];
        detail.records = records.slice(0, BEFORE_IMAGES_MAX);
        if (pk) keys = keysOfRecords(records, pk);
      } else if (c.endpoint === "delete") {
        const key = objectKeyOf(c);
        keys = [key];
        detail.key = key;
        // A delete removes every version of the key: which, and their bytes, as listed before it.
        const versions = await versionsOf(c.target ?? "", key);
        if (versions?.length) {
          const listed = versions.slice(0, DELETED_VERSIONS_MAX).map((v) => ({ versionedKey: v.versionedKey, size: v.size }));
          detail.versions = listed;
          if (versions.length > listed.length) detail.versionsOmitted = versions.length - listed.length;
          detail.size = versions.reduce((n, v) => n + (typeof v.size === "number" ? v.size : 0), 0);
        }
      } else if (c.endpoint === "upload") {
        // The request's length counts the multipart framing too: the file's own size is read
        // from the versions the upstream lists once it is stored (below).
        if (c.size !== undefined) detail.requestBytes = c.size;
      } else if (c.endpoint === "import") {
        if (c.size !== undefined) detail.size = c.size;
      } else if (c.endpoint === "storage-restore") {
        // A new newest version of `key` with the content of `restoredFrom` (v<version>/<key>).
        const restore = restoreOf(c);
        Object.assign(detail, restore);
        if (restore.key !== undefined) keys = [restore.key];
        if (restore.key !== undefined && restore.fromVersion !== undefined) {
          const size = await sizeOfVersion(c.target ?? "", restore.key, restore.restoredFrom);
          if (size !== undefined) detail.size = size;
        }
      } else if (c.endpoint === "upload-complete") {
        // Whether it was completed already: asked again after a lost answer, it writes nothing new (#3).
        const status = await uploadSessionOf(c);
        if (typeof status?.key === "string") {
          keys = [status.key];
          detail.key = status.key;
          if (typeof status.size === "number") detail.size = status.size;
          if (typeof status.completed === "string") detail.completedBefore = status.completed;
        }
      } else {
        Object.assign(detail, body);
        keys = jobKeys(body);
        // A folder's job: the files it takes, named as they were before it (their keys find it).
        const from = body.from;
        let files: { keys: string[]; more: boolean } | undefined;
        if (c.endpoint === "storage-job-start" && typeof from === "string" && from.endsWith("/")) {
          files = await filesUnder(c.target ?? "", from, JOB_FILES_MAX);
          if (files) {
            detail.files = files.keys;
            if (files.more) detail.filesMore = true;
            // A move or copy writes each under the destination folder: those keys find it too.
            const to = typeof body.to === "string" && body.action !== "delete" ? body.to : undefined;
            keys = [...keys, ...files.keys, ...(to === undefined ? [] : files.keys.map((k) => to + k.slice(from.length)))];
          }
        }
        // What the job takes, each file with its versions and sizes as they are before it (review
        // 38a #4: a move said only from and to, so the trail could not tell which bytes moved).
        if (c.endpoint === "storage-job-start" && typeof from === "string" && (!from.endsWith("/") || files)) {
          detail.sources = await withVersions(c.target ?? "", from.endsWith("/") ? (files?.keys ?? []) : [from]);
        }
        // A move that replaces what is there removes every version of it: name them, as a delete does.
        if (c.endpoint === "storage-job-start" && body.action === "move" && body.overwrite === true && typeof from === "string" && typeof body.to === "string") {
          const folder = from.endsWith("/");
          if (!folder || files) Object.assign(detail, await replacedBy(c.target ?? "", from, body.to, folder ? files?.keys : undefined));
        }
      }
      if (c.undoOf) detail.undoOf = c.undoOf;
      const change = await appendKept({ ...base(c), at: Date.now(), kind, resource, keys, detail: { ...detail, outcome: "pending" } });
      const upstreamHeaders: Record<string, string> = upstreamBefore && (pk || c.endpoint === "import") ? { [BEFORE_IMAGES_HEADER]: String(BEFORE_IMAGES_MAX) } : {};
      const finish: PendingChange["finish"] = async (status, headers, answer) => {
        const out: Record<string, unknown> = { status, outcome: status < 300 ? "applied" : status === 403 ? "refused" : "failed" };
        const json = parse(answer);
        const matched = Number(headers["x-matched-count"]);
        let outcomeKeys: string[] = [];
        const asked = upstreamHeaders[BEFORE_IMAGES_HEADER] && status < 300 && "before" in json;
        // An older service answered one object per Record: read the same way.
        const answered = !asked
          ? undefined
          : c.endpoint === "delete-records"
            ? imagesOf(json.before)
            : Array.isArray(json.before)
            ? imagesFrom(json.before as Record<string, unknown>[], [pk as string, ...((detail.values as { key: string }[]) ?? []).map((v) => v.key).filter((k) => k !== pk)])
            : imagesOf(json.before);
        if (answered && c.endpoint === "delete-records") {
          // Every Field of each Record removed, as a read before forwarding would have named them.
          deleted = answered.rows.map((row) => Object.fromEntries(answered.fields.map((f, i) => [f, row[i]])));
          keys = outcomeKeys = deleted.map((r) => recordKeyText(r[pk as string]));
          const removed = Number(json.count);
          if (Number.isFinite(removed) && removed > deleted.length) out.beforeImagesOmitted = removed - deleted.length;
        } else if (answered) {
          images = answered;
          const n = answered.rows.length;
          // An import's count of Records it changed (else of those it updated) is in its answer,
          // not a header: its before-images are of the Records whose values it changed.
          const overwrote = c.endpoint === "import" ? Number(json.changed ?? json.updated) : matched;
          if (Number.isFinite(overwrote) && overwrote > n) out.beforeImagesOmitted = overwrote - n;
        } else if (asked || ((c.endpoint === "update" || c.endpoint === "delete-records") && upstreamHeaders[BEFORE_IMAGES_HEADER] && status < 300 && (matched > 0 || Number(json.count) > 0))) {
          // Asked for, and not in the answer (or not readable): the service made the update but
          // could not read what it overwrote (out of memory beside it, say). Said, not left out;
          // and counted as not kept, so every Record's history of the table lists it ("perhaps").
          out.beforeImagesUnreadable = true;
          const overwrote = c.endpoint === "import" ? Number(json.changed ?? json.updated) : c.endpoint === "delete-records" ? Number(json.count) : matched;
          if (Number.isFinite(overwrote) && overwrote > 0) out.beforeImagesOmitted = overwrote;
        }
        // An import's: the keys of the Records it added (at most BEFORE_IMAGES_MAX), and its counts.
        const added = c.endpoint === "import" && status < 300 && Array.isArray(json.added) ? (json.added as unknown[]).map(recordKeyText) : undefined;
        if (c.endpoint === "import" && status < 300 && typeof json.inserted === "number" && typeof json.updated === "number") {
          Object.assign(out, { inserted: json.inserted, updated: json.updated, count: json.inserted + json.updated });
          // Of those it updated, how many it really changed (the others were as the file has them).
          if (typeof json.changed === "number") out.changed = json.changed;
        }
        if (asked || added) {
          // The client asked for an update, not for the trail's copy of what it overwrote.
          delete json.before;
          delete json.added;
          answer = Buffer.from(JSON.stringify(json));
        }
        if (status >= 300 && typeof json.message === "string") out.message = json.message;
        if (Number.isFinite(matched)) out.count = matched;
        else if (typeof json.count === "number") out.count = json.count;
        // An upload the service refused: the key it asked for (read from its body as it went).
        if (kind === "upload" && status >= 300 && c.uploadKey !== undefined) out.key = c.uploadKey;
        // A refused or failed completion: the key its session writes (read before it).
        if (c.endpoint === "upload-complete" && status >= 300 && typeof detail.key === "string") out.key = detail.key;
        // Completed already: the same version again, nothing new written (an answer lost, asked again).
        if (c.endpoint === "upload-complete" && status < 300 && detail.completedBefore !== undefined && json.key === detail.completedBefore) out.again = true;
        if ((kind === "upload" || c.endpoint === "storage-restore") && typeof json.key === "string") {
          const v = splitVersioned(json.key);
          out.versionedKey = json.key;
          if (v) Object.assign(out, v);
          // A completed resumable upload's answer says the size; a one-request upload's does not
          // (decisions: `{"key"}`): the version the upstream lists says it.
          if (typeof json.size === "number") out.size = json.size;
          else if (v && status < 300) {
            const size = await sizeOfVersion(c.target ?? "", v.key, json.key);
            if (size !== undefined) out.size = size;
          }
        }
        if (status < 300 && pk && images && c.endpoint === "update") {
          const packed = packChanges(images, (detail.values as { key: string; value: unknown }[]) ?? []);
          out.changes = packed.changes;
          // The request entry names the Records read before it (by the proxy); a new key it set
          // (a rename) is known only now: the outcome names it, so the Record's history under its
          // new key finds the change (review 37a #1: in hosted mode, it was listed under the old only).
          const named = new Set(keys);
          outcomeKeys = answered ? packed.keys : packed.keys.filter((k) => !named.has(k));
          keys = packed.keys;
        } else if (status < 300 && answered && c.endpoint === "import") {
          const packed = packImported(answered);
          out.changes = packed.changes;
          keys = outcomeKeys = packed.keys;
        }
        // Each added Record's history lists the import (the index takes BEFORE_IMAGES_MAX keys an entry).
        if (added?.length) {
          const named = added.slice(0, Math.max(0, BEFORE_IMAGES_MAX - outcomeKeys.length));
          out.added = named;
          // Past what is named, counted: the service names at most BEFORE_IMAGES_MAX of them.
          const inserted = typeof out.inserted === "number" ? out.inserted : added.length;
          if (inserted > named.length) out.addedOmitted = inserted - named.length;
          keys = outcomeKeys = [...outcomeKeys, ...named];
        }
        if (status < 300 && pk && deleted) out.deleted = deleted;
        const uploadKeys = (kind === "upload" || c.endpoint === "storage-restore") && typeof out.key === "string" ? [out.key] : [];
        if (uploadKeys.length) outcomeKeys = uploadKeys;
        if (c.endpoint === "import" && status < 300) opts.tablesChanged?.();
        const job = c.endpoint === "storage-job-start" && status < 300 ? jobOf(json) : undefined;
        if (job) out.job = job;
        // An upload's key, and the Records an update changed when the upstream named them, are
        // known only from the answer: the outcome carries them (a Record's history finds it).
        // The change is made; the entry before it says what was asked. When not even the room
        // kept for outcomes holds this one, how it ended, without what it overwrote, may still
        // fit; when neither does, it is owed (written when the store takes it).
        await appendOutcome({ ...base(c), at: Date.now(), kind: "outcome", resource, keys: outcomeKeys, detail: out, ref: change.seq }, (e) => ({
          status: out.status,
          outcome: out.outcome,
          count: out.count,
          message: out.message,
          notKept: `what the change overwrote did not fit in the trail (${e.message})`,
        }));
        // A job runs on after its answer: how it ended is recorded when it ends.
        const appliedKeys = uploadKeys.length ? uploadKeys : keys;
        const ended =
          job?.state === "running" && typeof job.id === "string"
            ? watchJob(c, resource, change.seq, c.target ?? "", job.id).then((end): AppliedChange | undefined => (end ? { kind, resource, keys: appliedKeys, detail, out: end } : undefined))
            : undefined;
        return { applied: status < 300 ? { kind, resource, keys: appliedKeys, detail, out, ...(ended ? { ended } : {}) } : undefined, answer };
      };
      const failed: PendingChange["failed"] = async (status, message, applied) => {
        const out: Record<string, unknown> = { status, outcome: applied === false ? "failed" : "unknown", message };
        // It may have been made, and its filter names no Record by its key: every Record of the
        // table may be one it changed, so each one's history lists it ("perhaps this one").
        if (applied !== false && keys.length === 0 && (c.endpoint === "update" || c.endpoint === "delete-records")) out.recordsNotNamed = true;
        // An upload that failed is recorded with the key it asked for (read from its body's start).
        const uploadKeys = kind === "upload" && c.uploadKey !== undefined ? [c.uploadKey] : [];
        if (uploadKeys.length) out.key = c.uploadKey;
        await appendOutcome({ ...base(c), at: Date.now(), kind: "outcome", resource, keys: uploadKeys, detail: out, ref: change.seq });
        return applied === false ? undefined : { kind, resource, keys: uploadKeys.length ? uploadKeys : keys, detail, out };
      };
      return { upstreamHeaders, finish, failed };
    },
    async refused(c, message) {
      try {
        const { detail, keys } = await attempted(c);
        await appendKept({ ...base(c), at: Date.now(), kind: "refused", resource: resourceOf(c), keys, detail: { endpoint: c.endpoint, message, ...detail } });
      } catch (e) {
        opts.onError?.(e as Error);
      }
    },
    async unanswered(c, status, message) {
      try {
        const { detail, keys } = await attempted(c);
        // A resumable upload's step that failed is a try at an upload; anything else not a change, a refusal.
        const kind = KIND[c.endpoint] ?? (c.endpoint.startsWith("upload-") ? "upload" : "refused");
        const resource = resourceOf(c);
        const change = await appendKept({ ...base(c), at: Date.now(), kind, resource, keys, detail: { ...detail, outcome: "pending" } });
        await log.append({ ...base(c), at: Date.now(), kind: "outcome", resource, keys: [], detail: { status, outcome: "failed", message }, ref: change.seq });
      } catch (e) {
        opts.onError?.(e as Error);
      }
    },
    async peopleChange({ actor, address, method, path, what }) {
      // Refused, like any change, while an earlier outcome is owed.
      if (owed.length && !(await payOwed())) throw owedRefusal();
      return recordPeopleChange(log, { email: actor.email, kind: actor.kind }, address, `${method} ${path}`, what, opts.onError, (e) => appendOutcome(e));
    },
    async signInFailed(email, address, endpoint = "POST /login") {
      const account = email || "(no email)";
      const k = `${account}\n${address}\n${endpoint}`;
      const now = Date.now();
      const open = failures.get(k);
      if (open && now - open.since < SIGN_IN_WINDOW_MS) {
        open.count++;
        return;
      }
      if (open) await writeFailures(k, open);
      const window: FailureWindow = { account, address, endpoint, since: now, count: 0, timer: setTimeout(() => void writeFailures(k, window), SIGN_IN_WINDOW_MS) };
      window.timer.unref();
      failures.set(k, window);
      await appendFailures(window, 1, now, now);
    },
    async flush() {
      await Promise.all([...failures].map(([k, w]) => writeFailures(k, w)));
      clearTimeout(owedRetry);
      owedRetry = undefined;
      if (owed.length && !(await payOwed())) {
        opts.onError?.(new Error(`${owed.length} outcome(s) of changes made could not be written to the trail; here they are, whole, as the last record of them:\n${owed.map((o) => JSON.stringify(o.entry)).join("\n")}`));
      }
      for (const t of jobWatches) clearTimeout(t);
      jobWatches.clear();
    },
  };
}
