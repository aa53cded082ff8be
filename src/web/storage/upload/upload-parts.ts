/**
 * A resumable upload from the browser (issue 22.5): the file in parts of the size the service
 * names, two in flight, each over XMLHttpRequest for its progress. The session is remembered in
 * localStorage under bucket + key + the file's name, size and modification time, so the same
 * file dropped again (after a reload, a crash, a failed attempt) asks which parts the service
 * has and sends only the others. A part cut off by the network is sent again by itself, after
 * the browser says it is back online: when the browser says it went offline, the parts in flight
 * are given up at once (a dropped connection can take minutes to fail by itself), the upload
 * says it is waiting, and its progress counts only what the service has. Cancel aborts the
 * session on the service.
 */
import { TAB_HEADER, TAB_ID } from "../../team/live/tab-id";
import { ApiError, CLIENT_HEADER, api, apiFetch } from "../../api-client";
import type { ResumableStart, ResumableStatus } from "../../../shared/storage";
import { isTransientStatus } from "./upload-queue.utils";
import { PARTS_IN_FLIGHT, type SavedSession, ackedBytes, parseSaved, partBounds, partsToSend, sessionStorageKey } from "./upload-parts.utils";
import { UploadAborted, type UploadHandle, xhrError } from "./upload-xhr";

/** Tries per part before the upload fails (Retry, or the same file dropped again, resumes it). */
const PART_TRIES = 3;
/**
 * How long to wait for a completion that did not answer: the service copies every part into the
 * file, which for gigabytes outlasts the proxy's upstream timeout (a 504) while it goes on.
 */
const COMPLETE_WAIT_MS = 15 * 60 * 1000;

export interface PartsCallbacks {
  onProgress(loaded: number): void;
  /** The session was found with `loaded` bytes already stored: the upload resumes from there. */
  onResumed(loaded: number): void;
  /** The upload waits for the browser to be back online (true), or goes on (false). */
  onWaiting(waiting: boolean): void;
}

const storage = (): Storage | undefined => {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
};

export function uploadInParts(bucket: string, key: string, file: File, cb: PartsCallbacks): UploadHandle {
  const base = `/api/v0/storage/uploads/${encodeURIComponent(bucket)}`;
  const remembered = sessionStorageKey(bucket, key, file);
  const live = new Set<XMLHttpRequest>();
  /** Requests given up because the browser went offline: they fail as the network, not as a cancel. */
  const cutOff = new WeakSet<XMLHttpRequest>();
  let cancelled = false;
  let failed = false;
  let sessionId: string | undefined;
  const wakers = new Set<() => void>();
  let waiters = 0;

  const forget = () => storage()?.removeItem(remembered);
  const stopIfCancelled = () => {
    if (cancelled) throw new UploadAborted("Upload cancelled");
  };

  /** The remembered session, if the service still has it for this key and size. */
  async function findSession(): Promise<{ saved: SavedSession; status: ResumableStatus } | undefined> {
    const saved = parseSaved(storage()?.getItem(remembered) ?? null);
    if (!saved) return undefined;
    try {
      const status = await api<ResumableStatus>(`${base}/${encodeURIComponent(saved.id)}`);
      if (status.key === key && status.size === file.size) return { saved, status };
    } catch (e) {
      // Gone, or started by someone else who signed in on this browser before: start afresh.
      if (!(e instanceof ApiError && (e.status === 404 || e.status === 400 || e.status === 403))) throw e;
    }
    forget();
    return undefined;
  }

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      // Offline: wait for the browser to say the network is back; online: a short backoff.
      const offline = !navigator.onLine;
      const done = () => {
        window.removeEventListener("online", done);
        clearTimeout(timer);
        wakers.delete(done);
        if (offline && --waiters === 0) cb.onWaiting(false);
        resolve();
      };
      wakers.add(done);
      const timer = setTimeout(done, offline ? 10 * 60 * 1000 : ms);
      if (offline) {
        if (waiters++ === 0) cb.onWaiting(true);
        window.addEventListener("online", done);
      }
    });

  // The browser knows the network is gone before a request in flight does: give those up now.
  const wentOffline = () => {
    for (const xhr of live) {
      cutOff.add(xhr);
      xhr.abort();
    }
  };
  window.addEventListener("offline", wentOffline);

  function sendPart(id: string, n: number, partSize: number, onLoaded: (bytes: number) => void): Promise<void> {
    const [start, end] = partBounds(file.size, partSize, n);
    const xhr = new XMLHttpRequest();
    live.add(xhr);
    return new Promise<void>((resolve, reject) => {
      xhr.open("PUT", `${base}/${encodeURIComponent(id)}/parts/${n}`);
      xhr.setRequestHeader(CLIENT_HEADER, "1");
      xhr.setRequestHeader(TAB_HEADER, TAB_ID);
      xhr.setRequestHeader("content-type", "application/octet-stream");
      xhr.responseType = "text";
      xhr.upload.onprogress = (e) => onLoaded(e.loaded);
      xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(xhrError(xhr)));
      xhr.onerror = () => reject(new ApiError(0, { error: "network_error", subCode: 0, message: `The server could not be reached while part ${n} was being sent: the upload goes on by itself from there when it answers again (or press Retry).` }));
      xhr.onabort = () =>
        reject(
          cutOff.has(xhr)
            ? new ApiError(0, { error: "network_error", subCode: 0, message: `The network went away while part ${n} was being sent.` })
            : new UploadAborted("Upload cancelled"),
        );
      xhr.send(file.slice(start, end));
    }).finally(() => live.delete(xhr));
  }

  const upload = async (): Promise<{ key: string }> => {
    let found = await findSession();
    stopIfCancelled();
    if (found?.status.completed) {
      forget();
      return { key: found.status.completed };
    }
    if (!found) {
      const started = await api<ResumableStart>(base, { method: "POST", json: { key, size: file.size, contentType: file.type || undefined } });
      const saved = { id: started.id, partSize: started.partSize, savedAt: Date.now() };
      storage()?.setItem(remembered, JSON.stringify(saved));
      found = { saved, status: { key, size: file.size, partSize: started.partSize, parts: [] } };
    }
    const { id } = found.saved;
    const partSize = found.status.partSize;
    sessionId = id;
    if (cancelled) {
      // Cancelled while the session was being started: abort it now that its id is known.
      forget();
      void apiFetch(`${base}/${encodeURIComponent(id)}`, { method: "DELETE" }).catch(() => undefined);
      throw new UploadAborted("Upload cancelled");
    }
    let confirmed = ackedBytes(file.size, partSize, found.status.parts);
    if (confirmed > 0) cb.onResumed(confirmed);
    const todo = partsToSend(file.size, partSize, found.status.parts);
    const sending = new Map<number, number>();
    const report = () => cb.onProgress(confirmed + [...sending.values()].reduce((a, b) => a + b, 0));

    const worker = async () => {
      while (todo.length && !failed) {
        stopIfCancelled();
        const n = todo.shift()!;
        for (let attempt = 1; ; attempt++) {
          sending.set(n, 0);
          try {
            await sendPart(id, n, partSize, (bytes) => {
              sending.set(n, bytes);
              report();
            });
            break;
          } catch (e) {
            sending.delete(n);
            report();
            if (e instanceof UploadAborted || cancelled) throw new UploadAborted("Upload cancelled");
            const transient = !(e instanceof ApiError) || isTransientStatus(e.status);
            const offline = !navigator.onLine;
            if (!transient || failed || (!offline && attempt >= PART_TRIES)) throw e;
            // A part lost with the connection does not use up its tries: it waits for the network.
            if (offline) attempt = 0;
            await pause(1000 * 2 ** Math.max(0, attempt - 1));
            stopIfCancelled();
          }
        }
        sending.delete(n);
        const [a, b] = partBounds(file.size, partSize, n);
        confirmed += b - a;
        report();
      }
    };
    try {
      await Promise.all(Array.from({ length: PARTS_IN_FLIGHT }, worker));
    } catch (e) {
      failed = true;
      throw e;
    }
    stopIfCancelled();
    const stored = await finish(id);
    forget();
    return { key: stored };
  };
  const promise = upload().finally(() => window.removeEventListener("offline", wentOffline));

  /** Completes the session; on no answer (a timeout, a 409 "being completed") asks until it is done, or completes again. */
  async function finish(id: string): Promise<string> {
    const until = Date.now() + COMPLETE_WAIT_MS;
    for (;;) {
      try {
        return (await api<{ key: string }>(`${base}/${encodeURIComponent(id)}/complete`, { method: "POST", json: {} })).key;
      } catch (e) {
        if (!(e instanceof ApiError) || !(isTransientStatus(e.status) || e.status === 409) || Date.now() > until) throw e;
      }
      for (;;) {
        await pause(2000);
        stopIfCancelled();
        const status = await api<ResumableStatus>(`${base}/${encodeURIComponent(id)}`).catch(() => undefined);
        if (status?.completed) return status.completed;
        // Not completed yet: complete again (a 409 while the first request is still at it: ask again after a pause).
        if (status) break;
        if (Date.now() > until) throw new ApiError(504, { error: "gateway_timeout", subCode: 9, message: "The service did not finish putting the file together in 15 minutes." });
      }
    }
  }

  return {
    promise,
    abort() {
      cancelled = true;
      for (const xhr of live) xhr.abort();
      for (const wake of [...wakers]) wake();
      forget();
      // The parts stored so far go with the session; nobody waits for the answer.
      if (sessionId) void apiFetch(`${base}/${encodeURIComponent(sessionId)}`, { method: "DELETE" }).catch(() => undefined);
    },
  };
}
