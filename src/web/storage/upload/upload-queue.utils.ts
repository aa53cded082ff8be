/**
 * The upload queue as a pure state machine. Each file goes
 *   checking → (confirm →) queued → uploading → done | error | cancelled
 * "checking" asks the service whether the key already has a version; if it has, the user must
 * confirm before a new version is uploaded ("confirm"), or skip it. Side effects (HEAD requests,
 * XHRs) live in upload-store.ts and only dispatch these events.
 */

export type UploadStatus = "checking" | "confirm" | "queued" | "uploading" | "done" | "error" | "cancelled" | "skipped";

export interface UploadItem {
  id: string;
  bucket: string;
  key: string;
  size: number;
  status: UploadStatus;
  loaded: number;
  /** The user agreed to upload a new version of an existing key. */
  replace?: boolean;
  error?: string;
  /** False when trying again cannot help (a bad name, a file over the limit, no access). */
  retryable?: boolean;
  versionedKey?: string;
  /** Bytes the service already had when this upload resumed a session (issue 22.5). */
  resumedAt?: number;
  /** An upload in parts held until the browser is back online (what was stored is kept). */
  waiting?: boolean;
}

export interface QueueState {
  items: UploadItem[];
}

export type QueueEvent =
  | { type: "add"; items: { id: string; bucket: string; key: string; size: number }[] }
  | { type: "checked"; id: string; exists: boolean }
  | { type: "confirm"; ids: string[] }
  | { type: "skip"; ids: string[] }
  | { type: "start"; id: string }
  | { type: "progress"; id: string; loaded: number }
  | { type: "resumed"; id: string; loaded: number }
  | { type: "waiting"; id: string; waiting: boolean }
  | { type: "succeeded"; id: string; versionedKey: string }
  | { type: "failed"; id: string; message: string; retryable?: boolean }
  | { type: "cancel"; id: string }
  | { type: "retry"; id: string }
  | { type: "dismiss"; id: string }
  | { type: "clearFinished" };

export const initialQueue: QueueState = { items: [] };

const ACTIVE: UploadStatus[] = ["checking", "confirm", "queued", "uploading"];
export const isActive = (s: UploadStatus) => ACTIVE.includes(s);

function update(state: QueueState, id: string, from: UploadStatus[], patch: (i: UploadItem) => Partial<UploadItem>): QueueState {
  let changed = false;
  const items = state.items.map((i) => {
    if (i.id !== id || !from.includes(i.status)) return i;
    changed = true;
    return { ...i, ...patch(i) };
  });
  return changed ? { items } : state;
}

export function queueReducer(state: QueueState, ev: QueueEvent): QueueState {
  switch (ev.type) {
    case "add": {
      const known = new Set(state.items.map((i) => i.id));
      const fresh = ev.items
        .filter((i) => !known.has(i.id))
        .map((i): UploadItem => ({ ...i, status: "checking", loaded: 0 }));
      return fresh.length ? { items: [...state.items, ...fresh] } : state;
    }
    case "checked":
      return update(state, ev.id, ["checking"], (i) => ({
        status: ev.exists && !i.replace ? "confirm" : "queued",
        replace: i.replace || ev.exists,
      }));
    case "confirm":
      return ev.ids.reduce((s, id) => update(s, id, ["confirm"], () => ({ status: "queued", replace: true })), state);
    case "skip":
      return ev.ids.reduce((s, id) => update(s, id, ["confirm"], () => ({ status: "skipped" })), state);
    case "start":
      return update(state, ev.id, ["queued"], () => ({ status: "uploading", loaded: 0, error: undefined, resumedAt: undefined, waiting: undefined }));
    case "progress":
      // Not only upwards: bytes of a part that the network cut off were not stored, and the bar says so.
      return update(state, ev.id, ["uploading"], (i) => ({ loaded: Math.min(i.size, Math.max(0, ev.loaded)) }));
    case "waiting":
      // Back online after a wait: it goes on from what the service has, and says so as a resumed
      // upload does (review 51b #6: the row said only "Uploading 63%").
      return update(state, ev.id, ["uploading"], (i) => (ev.waiting ? { waiting: true } : { waiting: undefined, ...(i.waiting ? { resumedAt: i.loaded } : {}) }));
    case "resumed":
      return update(state, ev.id, ["uploading"], (i) => ({ loaded: Math.min(i.size, ev.loaded), resumedAt: Math.min(i.size, ev.loaded) }));
    case "succeeded":
      return update(state, ev.id, ["uploading"], (i) => ({ status: "done", loaded: i.size, versionedKey: ev.versionedKey, waiting: undefined }));
    case "failed":
      return update(state, ev.id, ["checking", "uploading"], () => ({ status: "error", error: ev.message, retryable: ev.retryable ?? true, waiting: undefined }));
    case "cancel":
      return update(state, ev.id, ACTIVE, () => ({ status: "cancelled", waiting: undefined }));
    case "retry": {
      const item = state.items.find((i) => i.id === ev.id);
      if (item?.status === "error" && item.retryable === false) return state;
      return update(state, ev.id, ["error", "cancelled"], () => ({ status: "checking", loaded: 0, error: undefined, retryable: undefined }));
    }
    case "dismiss": {
      const items = state.items.filter((i) => i.id !== ev.id || isActive(i.status));
      return items.length === state.items.length ? state : { items };
    }
    case "clearFinished":
      return { items: state.items.filter((i) => isActive(i.status) || i.status === "error") };
  }
}

/** Queued items to start now so that at most `concurrency` upload at once, oldest first. */
export function itemsToStart(state: QueueState, concurrency: number): string[] {
  const running = state.items.filter((i) => i.status === "uploading").length;
  const free = Math.max(0, concurrency - running);
  return state.items
    .filter((i) => i.status === "queued")
    .slice(0, free)
    .map((i) => i.id);
}

export interface QueueTotals {
  /** Bytes of the files still meant to be uploaded or already uploaded. */
  total: number;
  loaded: number;
  /** 0 … 1; 1 when nothing is counted. */
  fraction: number;
  counts: Record<UploadStatus, number>;
  busy: boolean;
}

export function queueTotals(state: QueueState): QueueTotals {
  const counts: Record<UploadStatus, number> = {
    checking: 0,
    confirm: 0,
    queued: 0,
    uploading: 0,
    done: 0,
    error: 0,
    cancelled: 0,
    skipped: 0,
  };
  let total = 0;
  let loaded = 0;
  for (const i of state.items) {
    counts[i.status]++;
    // Failed, cancelled and skipped files no longer count, so the bar can reach the end.
    if (isActive(i.status) || i.status === "done") {
      total += i.size;
      loaded += i.loaded;
    }
  }
  const busy = ACTIVE.some((s) => counts[s] > 0);
  return { total, loaded, fraction: total > 0 ? loaded / total : 1, counts, busy };
}

/** "Resumed at 48%": where a resumed upload started again, for the row. */
export const resumedText = (i: Pick<UploadItem, "resumedAt" | "size">) =>
  // Rounded as the row's own percentage is ("Waiting for the connection (40% stored)", then "Resumed at 40%").
  i.resumedAt !== undefined && i.size > 0 ? `Resumed at ${Math.round((i.resumedAt / i.size) * 100)}%` : undefined;

/** Whether the user can ask for this item again (after a cancel, or a failure that may pass). */
export const canRetry = (i: UploadItem) => i.status === "cancelled" || (i.status === "error" && i.retryable !== false);

/**
 * Whether an HTTP failure may pass by itself: no answer at all, a timeout, too many requests, or
 * the server's side. A 4xx says something about the request, which sending it again won't change.
 */
export const isTransientStatus = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500;

/**
 * The files to confirm as one batch: nothing until every existence check has answered, so a drop
 * of several existing files asks once, listing them all, instead of once per file as the checks
 * come back.
 */
export function awaitingConfirmation(state: QueueState): UploadItem[] {
  if (state.items.some((i) => i.status === "checking")) return [];
  return state.items.filter((i) => i.status === "confirm");
}
