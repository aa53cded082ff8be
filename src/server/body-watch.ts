/**
 * Watches a request body arriving, for the proxy and the service alike: "no byte for idleMs"
 * (a client that stalls) and, for JSON bodies, "not all of it within totalMs" (a client that
 * drips one byte at a time). Node's own server has neither: its requestTimeout would also cut
 * long uploads, and a socket timeout would also fire while a long query is being answered.
 *
 * It reads nothing itself (no 'data' listener: that would steal the body from whoever reads
 * it); it compares the socket's byte count between checks. Time during which the reader is
 * the slow one (the body's buffer is full, so Node stopped reading the socket) does not count
 * as the client's idleness.
 */
import type { IncomingMessage } from "node:http";

export type BodyTimeout = "idle" | "total";

export interface BodyWatchOptions {
  idleMs: number;
  /** Whole-body deadline, counted from now; none when undefined or 0. */
  totalMs?: number;
  onTimeout(kind: BodyTimeout): void;
}

/** True when the request declares a body that has not fully arrived yet. */
export function expectsBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

/** Starts watching; returns a function that stops it (also stopped when the body is complete or the request closes). */
export function watchBody(req: IncomingMessage, opts: BodyWatchOptions): () => void {
  if (!expectsBody(req)) return () => {};
  const socket = req.socket;
  let lastBytes = socket.bytesRead;
  let lastChange = Date.now();
  let idleTimer: NodeJS.Timeout | undefined;
  let totalTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(idleTimer);
    clearTimeout(totalTimer);
    req.off("end", stop);
    req.off("close", stop);
  };
  const fire = (kind: BodyTimeout) => {
    if (stopped || req.complete) return stop();
    stop();
    opts.onTimeout(kind);
  };
  const readerIsSlow = () => req.readableLength >= req.readableHighWaterMark;
  const check = () => {
    if (stopped || req.complete) return stop();
    const now = Date.now();
    const bytes = socket.bytesRead;
    if (bytes !== lastBytes || readerIsSlow()) {
      lastBytes = bytes;
      lastChange = now;
    }
    const left = lastChange + opts.idleMs - now;
    if (left <= 0) return fire("idle");
    idleTimer = setTimeout(check, Math.min(left, tick));
    idleTimer.unref();
  };
  // Looked at every sixth of the idle time (at most 5 s): bytes are seen when looked for, so the
  // last one is dated to a look, and with one look per idle time a body that stopped just
  // after one was cut at up to twice the limit (60 s for 30: review 31a #6).
  const tick = Math.max(50, Math.min(opts.idleMs / 6, 5_000));
  idleTimer = setTimeout(check, tick);
  idleTimer.unref();
  if (opts.totalMs) {
    totalTimer = setTimeout(() => fire("total"), opts.totalMs);
    totalTimer.unref();
  }
  req.once("end", stop);
  req.once("close", stop);
  return stop;
}

/** The message of a 408 for a body that stopped arriving, in words a user can act on. */
export function bodyTimeoutMessage(kind: BodyTimeout, idleMs: number, totalMs?: number): string {
  return kind === "idle"
    ? `The request body stopped arriving: nothing came for ${idleMs / 1000} s. Send it again.`
    : `The request body did not arrive within ${(totalMs ?? 0) / 1000} s. Send it again, over a faster connection if you can.`;
}
