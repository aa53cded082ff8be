/**
 * The service's bounds on slow clients, the same as the proxy's: headers within a time limit,
 * a body that stalls (nothing for bodyIdleMs) or, for JSON calls, takes longer than jsonBodyMs
 * in all, is answered 408 in the one error shape and its connection closed. Uploads and imports
 * stream for as long as they keep moving. What Node's parser refuses is answered in the same
 * shape (client-error.ts).
 */
import http from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyInstance } from "fastify";
import { errorBody } from "../../shared/errors";
import { bodyTimeoutMessage, watchBody } from "../body-watch";
import { answerClientError } from "../client-error";
import type { ServiceLimits } from "./config";

/** Fastify server options: the node:http server with the headers deadline, parser refusals in our shape. */
export function serverOptions(limits: ServiceLimits) {
  return {
    serverFactory: (handler: http.RequestListener) =>
      http.createServer(
        {
          requestTimeout: 0,
          headersTimeout: limits.headersTimeoutMs,
          // Node checks the headers deadline on this interval (30 s by default): keep it finer.
          connectionsCheckingInterval: Math.max(100, Math.min(1_000, limits.headersTimeoutMs / 4)),
        },
        handler,
      ),
    clientErrorHandler: (err: Error, socket: Duplex) => answerClientError(err as Parameters<typeof answerClientError>[0], socket),
  };
}

/** Bodies streamed to storage or the importer: no whole-body deadline, only the idle one. */
function isStreamedUpload(method: string, url: string): boolean {
  const path = url.split("?")[0];
  return (method === "POST" && (path.startsWith("/v0/storage/object/") || path.endsWith("/import"))) || (method === "PUT" && path.startsWith("/v0/storage/uploads/"));
}

/**
 * Watches every request body. On a timeout the answer is written on the socket itself and the
 * socket closed: whichever reader was waiting for the body (Fastify's JSON parser, busboy) then
 * sees a client that went away, as it would if the client had left on its own.
 */
export function installBodyTimeouts(app: FastifyInstance, limits: ServiceLimits): void {
  app.addHook("onRequest", async (request, reply) => {
    const raw = request.raw;
    const totalMs = isStreamedUpload(raw.method ?? "", raw.url ?? "") ? undefined : limits.jsonBodyMs;
    watchBody(raw, {
      idleMs: limits.bodyIdleMs,
      totalMs,
      onTimeout(kind) {
        const socket = raw.socket;
        if (reply.raw.headersSent || !socket.writable) return void socket.destroy();
        const body = JSON.stringify(errorBody("request_timeout", bodyTimeoutMessage(kind, limits.bodyIdleMs, totalMs)));
        socket.end(
          "HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\n" +
            `cache-control: no-store\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        // The answer is out once end() has flushed it; do not wait for the client to close.
        socket.once("finish", () => socket.destroy());
      },
    });
  });
}
