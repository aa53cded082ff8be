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
  | { kind: "ok"; body: Buffer }
  /** Answer with this; the rest of the body (if any) is still unread. */
  | { kind: "refused"; status: 408 | 413; body: ErrorBody }
  /** The client went away before its body was complete: nobody to answer. */
  | { kind: "aborted"; received: number };

export interface JsonBodyLimits {
  idleMs: number;
  totalMs: number;
  limit?: number;
}

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
      stopWatch();
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      req.off("error", onClose);
      if (outcome.kind !== "ok") req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return finish({ kind: "refused", status: 413, body: errorBody("payload_too_large", JSON_BODY_TOO_LARGE) });
      chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: "ok", body: Buffer.concat(chunks, received) });
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
