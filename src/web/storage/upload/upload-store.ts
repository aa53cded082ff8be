/**
 * The upload queue's zustand slice and the effects that drive it: existence checks, at most
 * UPLOAD_CONCURRENCY XHRs at once, cancel and retry. Files and abort handles stay outside the
 * store (they are not state to render); the store only holds the pure queue of upload-queue.utils.
 */
import { fetchUpstreamState, PROBE_TIMEOUT_MS } from "../../app/health-get-query";
import { isOutage } from "../../app/query-client";
import { create } from "zustand";
import { ApiError } from "../../api-client";
import { rememberUpload } from "../local-uploads";
import { objectExists } from "../object-head-query";
import { type QueueEvent, type QueueState, type UploadItem, initialQueue, isActive, isTransientStatus, itemsToStart, queueReducer } from "./upload-queue.utils";
import { UploadAborted, uploadFile } from "./upload-xhr";
import { uploadInParts } from "./upload-parts";
import { RESUMABLE_MIN_BYTES } from "./upload-parts.utils";

export const UPLOAD_CONCURRENCY = 3;

interface UploadSlice extends QueueState {
  dispatch(ev: QueueEvent): void;
}

export const useUploadStore = create<UploadSlice>()((set) => ({
  ...initialQueue,
  dispatch: (ev) => set((s) => queueReducer(s, ev)),
}));

// Closing or reloading the tab would drop uploads in flight without a word: ask first.
const warnBeforeLeaving = (e: BeforeUnloadEvent) => {
  e.preventDefault();
  e.returnValue = "";
};
let warning = false;
useUploadStore.subscribe((s) => {
  const busy = s.items.some((i) => isActive(i.status));
  if (busy === warning || typeof window === "undefined") return;
  warning = busy;
  if (busy) window.addEventListener("beforeunload", warnBeforeLeaving);
  else window.removeEventListener("beforeunload", warnBeforeLeaving);
});

const files = new Map<string, File>();
/** Items whose bucket does not grant `update`: an existing key fails at once instead of asking. */
const noUpdate = new Set<string>();
/**
 * Items whose bucket does not grant `read`: whether the key exists cannot be asked (the check is a
 * read), so they go straight to the upload; the service itself refuses an existing key there
 * unless the bucket grants `update`, with a message that says so.
 */
const noRead = new Set<string>();
/** Items whose upstream takes uploads in parts (capability `resumable`). */
const resumable = new Set<string>();
const aborts = new Map<string, () => void>();
const listeners = new Set<(item: UploadItem) => void>();
let nextId = 1;

const dispatch = (ev: QueueEvent) => {
  useUploadStore.getState().dispatch(ev);
  pump();
};
const itemById = (id: string) => useUploadStore.getState().items.find((i) => i.id === id);

/** Called after each finished upload (the workspace refreshes its list there). */
export function onUploaded(fn: (item: UploadItem) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export interface NewUpload {
  key: string;
  file: File;
  /** Why this key cannot be uploaded at all (checked before anything is sent). */
  problem?: string | null;
}

export interface BucketAccess {
  canRead: boolean;
  canUpdate: boolean;
  /** The upstream advertises `resumable`: large files go in parts and resume after a cut. */
  resumable?: boolean;
}

export function enqueueUploads(bucket: string, uploads: NewUpload[], opts: BucketAccess = { canRead: true, canUpdate: true }): void {
  const added = uploads.map((u) => ({ id: `u${nextId++}`, ...u }));
  for (const u of added) {
    files.set(u.id, u.file);
    if (!opts.canUpdate) noUpdate.add(u.id);
    if (!opts.canRead) noRead.add(u.id);
    if (opts.resumable) resumable.add(u.id);
  }
  dispatch({ type: "add", items: added.map((u) => ({ id: u.id, bucket, key: u.key, size: u.file.size })) });
  for (const u of added) {
    if (u.problem) dispatch({ type: "failed", id: u.id, message: u.problem, retryable: false });
    else void check(u.id);
  }
}

async function check(id: string): Promise<void> {
  const item = itemById(id);
  if (!item || item.status !== "checking") return;
  if (noRead.has(id)) {
    dispatch({ type: "checked", id, exists: false });
    return;
  }
  let exists: boolean;
  try {
    exists = await objectExists(item.bucket, item.key);
  } catch (e) {
    dispatch({ type: "failed", id, message: `Could not check whether “${item.key}” exists: ${(e as Error).message}`, retryable: mayPass(e) });
    return;
  }
  if (exists && noUpdate.has(id)) {
    dispatch({
      type: "failed",
      id,
      message: `“${item.key}” already exists, and bucket “${item.bucket}” does not allow new versions (no update access). Rename the file to upload it.`,
      retryable: false,
    });
    return;
  }
  dispatch({ type: "checked", id, exists });
}

function pump(): void {
  const state = useUploadStore.getState();
  for (const id of itemsToStart(state, UPLOAD_CONCURRENCY)) {
    useUploadStore.getState().dispatch({ type: "start", id });
    start(id);
  }
}

function start(id: string): void {
  const item = itemById(id);
  const file = files.get(id);
  if (!item || !file) {
    dispatch({ type: "failed", id, message: "The file is no longer available; drop it again.", retryable: false });
    return;
  }
  const onProgress = (loaded: number) => useUploadStore.getState().dispatch({ type: "progress", id, loaded });
  const handle =
    resumable.has(id) && file.size > RESUMABLE_MIN_BYTES
      ? uploadInParts(item.bucket, item.key, file, {
          onProgress,
          onResumed: (loaded) => useUploadStore.getState().dispatch({ type: "resumed", id, loaded }),
          onWaiting: (waiting) => useUploadStore.getState().dispatch({ type: "waiting", id, waiting }),
        })
      : uploadFile(item.bucket, item.key, file, onProgress);
  aborts.set(id, handle.abort);
  handle.promise.then(
    async ({ key: versionedKey }) => {
      aborts.delete(id);
      dispatch({ type: "succeeded", id, versionedKey });
      const done = itemById(id);
      await rememberUpload({
        bucket: item.bucket,
        key: item.key,
        versionedKey,
        size: file.size,
        contentType: file.type || "application/octet-stream",
        lastModified: new Date().toISOString(),
      }).catch(() => undefined);
      if (done) for (const fn of listeners) fn(done);
    },
    (e: unknown) => {
      aborts.delete(id);
      if (e instanceof UploadAborted) return;
      const message = e instanceof ApiError ? e.message : String(e);
      if (isOutage(e)) {
        cutByOutage.add(id);
        watchForServer();
      }
      dispatch({ type: "failed", id, message, retryable: mayPass(e) });
    },
  );
}

/** A failure worth a Retry button: no answer, a timeout, or the server's side. */
/** Uploads that failed because the server could not be reached: sent again when it is back. */
const cutByOutage = new Set<string>();

function mayPass(e: unknown): boolean {
  return !(e instanceof ApiError) || isTransientStatus(e.status);
}

export function cancelUpload(id: string): void {
  aborts.get(id)?.();
  aborts.delete(id);
  dispatch({ type: "cancel", id });
}

export function cancelAllUploads(): void {
  for (const i of useUploadStore.getState().items) if (["checking", "confirm", "queued", "uploading"].includes(i.status)) cancelUpload(i.id);
}

export function retryUpload(id: string): void {
  cutByOutage.delete(id);
  dispatch({ type: "retry", id });
  void check(id);
}

export function confirmReplace(ids: string[]): void {
  dispatch({ type: "confirm", ids });
}

export function skipReplace(ids: string[]): void {
  dispatch({ type: "skip", ids });
}

export function dismissUpload(id: string): void {
  dispatch({ type: "dismiss", id });
  files.delete(id);
  noUpdate.delete(id);
  noRead.delete(id);
  resumable.delete(id);
  cutByOutage.delete(id);
}

/**
 * The server answers again after an outage (watchForServer; review 46b #2: an upload cut off by
 * the Baseboard server's restart waited for Retry): the uploads it cut off go on by themselves,
 * those in parts from their last part.
 */
function resumeAfterOutage(): void {
  for (const i of useUploadStore.getState().items) if (i.status === "error" && i.retryable !== false && cutByOutage.has(i.id)) retryUpload(i.id);
}

/** How often an upload cut off by an outage asks whether the server is back. */
const SERVER_POLL_MS = 2000;
let serverPoll: ReturnType<typeof setTimeout> | undefined;

/**
 * Asks the server's health until it is up, then resumes what the outage cut off: an outage shorter
 * than the badge's own poll was never seen by it, and its uploads stayed failed.
 */
function watchForServer(): void {
  if (serverPoll !== undefined) return;
  const ask = async () => {
    const up = await fetchUpstreamState(AbortSignal.timeout(PROBE_TIMEOUT_MS)).then(
      (h) => h.state === "up",
      () => false,
    );
    if (up) {
      serverPoll = undefined;
      resumeAfterOutage();
    } else serverPoll = setTimeout(() => void ask(), SERVER_POLL_MS);
  };
  serverPoll = setTimeout(() => void ask(), SERVER_POLL_MS);
}

// The network came back: uploads in parts that failed for want of it go on from their last part.
if (typeof window !== "undefined") {
  window.addEventListener("online", () => {
    for (const i of useUploadStore.getState().items) if (i.status === "error" && i.retryable !== false && resumable.has(i.id)) retryUpload(i.id);
  });
}

export function clearFinishedUploads(): void {
  dispatch({ type: "clearFinished" });
  const live = new Set(useUploadStore.getState().items.map((i) => i.id));
  for (const id of files.keys()) {
    if (live.has(id)) continue;
    files.delete(id);
    noUpdate.delete(id);
    noRead.delete(id);
    resumable.delete(id);
  }
}
