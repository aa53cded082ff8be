/**
 * The proxy's node:http server with its bounds: headers must arrive within a time limit (408),
 * and whatever the parser refuses (431, 414, 408, 400) is answered in the one error shape.
 * There is no whole-request limit here: it would cut long uploads; bodies are watched per
 * request instead (body-watch.ts), and JSON bodies get their own deadline (json-body.ts).
 */
import http from "node:http";
import { answerClientError } from "../client-error";
import type { ProxyLimits } from "./config";

export function createProxyServer(limits: ProxyLimits): http.Server {
  const server = http.createServer({
    requestTimeout: 0,
    headersTimeout: limits.headersTimeoutMs,
    // Node checks the headers deadline on this interval (30 s by default): keep it finer than the deadline.
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, limits.headersTimeoutMs / 4)),
    keepAliveTimeout: 5_000,
  });
  server.on("clientError", answerClientError);
  return server;
}
