/**
 * Reads a record call's JSON body whole before the proxy takes an upstream connection for it,
 * so a client that trickles its body in holds only its own socket, never one of the shared
 * upstream connections. Refuses past the service's own limit, with the service's own 413, and
 * cuts a body that stalls or takes too long with a 408.
 */
import type { IncomingMessage } from "node:http";
import { type ErrorBody, errorBody } from "../../shared/errors";
import { JSON_BODY_LIMIT, JSON_BODY_TOO_LARGE } from "../../shared/limits";
import { bodyTimeoutMessage, watchBody } from "../body-watch";

export type JsonBodyRead =
  /** release() gives the body's bytes back to the budget: call it once the body has been sent on. */
  | { kind: "ok"; body: Buffer; release(): void }
  /** Answer with this; the rest of the body (if any) is still unread. */
  | { kind: "refused"; status: 408 | 413 | 503; body: ErrorBody }
  /** The client went away before its body was complete: nobody to answer. */
  | { kind: "aborted"; received: number };

export interface JsonBodyLimits {
  idleMs: number;
  totalMs: number;
  limit?: number;
  /** Shared by all requests: bytes of JSON bodies held at once, so many slow clients cannot exhaust memory. */
  budget?: BufferBudget;
}

export interface BufferBudget {
  /** Takes n bytes if they fit; false when they do not. */
  take(n: number): boolean;
  give(n: number): void;
  readonly held: number;
}

export function createBufferBudget(maxBytes: number): BufferBudget {
  let held = 0;
  return {
    take(n) {
      if (held + n > maxBytes) return false;
      held += n;
      return true;
    },
    give(n) {
      held -= n;
    },
    get held() {
      return held;
    },
  };
}

const BUSY = "The proxy is holding too many request bodies at once; try again in a moment.";

export function readJsonBody(req: IncomingMessage, limits: JsonBodyLimits): Promise<JsonBodyRead> {
  const limit = limits.limit ?? JSON_BODY_LIMIT;
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.resolve({ kind: "refused", status: 413, body: errorBody("payload_too_large", JSON_BODY_TOO_LARGE) });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (outcome: JsonBodyRead) => {
      // A whole body stays counted until it has gone upstream (it may wait for a free connection).
      if (outcome.kind !== "ok") limits.budget?.give(received);
      stopWatch();
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      req.off("error", onClose);
      if (outcome.kind !== "ok") req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > limit) {
        return finish({ kind: "refused", status: 413, body: errorBody("payload_too_large", JSON_BODY_TOO_LARGE) });
      }
      if (limits.budget && !limits.budget.take(chunk.length)) return finish({ kind: "refused", status: 503, body: errorBody("unavailable", BUSY) });
      received += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => {
      let held = received;
      const release = () => {
        limits.budget?.give(held);
        held = 0;
      };
      finish({ kind: "ok", body: Buffer.concat(chunks, received), release });
    };
    const onClose = () => finish({ kind: "aborted", received });
    const stopWatch = watchBody(req, {
      idleMs: limits.idleMs,
      totalMs: limits.totalMs,
      onTimeout: (kind) =>
        finish({ kind: "refused", status: 408, body: errorBody("request_timeout", bodyTimeoutMessage(kind, limits.idleMs, limits.totalMs)) }),
    });
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
    req.on("error", onClose);
  });
}
