/**
 * Streams one request to the upstream and its answer back (undici, keep-alive pool). Nothing is
 * buffered: the browser's body is the upstream request's body, the upstream's body is piped to
 * the browser, both with backpressure, so a 1 GiB upload costs the proxy a few buffers.
 *
 * Failures before the answer starts become 502 (unreachable, refused, reset) or 504 (no answer
 * headers within the timeout, counted from the end of the request body so slow uploads are not
 * cut short). Once the answer has started, the only honest thing left is to cut the browser's
 * connection too, so it sees a truncated response rather than a complete-looking one.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { PassThrough } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Pool } from "undici";
import { errorBody } from "../../shared/errors";
import { browserResponseHeaders, upstreamRequestHeaders } from "./headers";

export interface UpstreamOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Shown in error messages; never contains the key. */
  label: string;
}

export interface Upstream {
  forward(req: IncomingMessage, res: ServerResponse, path: string, opts: { withKey: boolean; headers: OutgoingHttpHeaders }): Promise<void>;
  /** A GET (or HEAD) of the upstream with the key, body read whole (small JSON only). */
  getJson(path: string, method?: "GET" | "HEAD"): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

export class UpstreamFailure extends Error {
  constructor(
    readonly status: 502 | 504,
    message: string,
  ) {
    super(message);
  }
  toBody() {
    return errorBody(this.status === 504 ? "gateway_timeout" : "bad_gateway", this.message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

/** How long the rest of a body answered early may take to arrive before its socket is cut. */
const LINGER_MS = 30_000;

/**
 * The upstream answered before the browser finished sending (a 413 on an oversized upload):
 * nobody reads the rest any more, and a browser shows no answer until its body is sent, so
 * without this the upload would freeze until a timer cut the connection. Read and drop the rest
 * (like nginx's lingering close), and cut only a body that keeps coming for too long.
 */
function discardRest(req: IncomingMessage): void {
  const cut = setTimeout(() => req.socket.destroy(), LINGER_MS);
  cut.unref();
  req.once("end", () => clearTimeout(cut));
  req.once("close", () => clearTimeout(cut));
  // Unpipe first: the pass-through, once undici drops it, would otherwise pause req again.
  req.unpipe();
  req.resume();
}

/**
 * The browser's body as the upstream request's body, through a pass-through so that undici,
 * when it is done with it early, destroys the pass-through and not the browser's request
 * (whose rest discardRest must still be able to read). A browser that breaks off still
 * breaks off the upstream request.
 */
function bodyOf(req: IncomingMessage): PassThrough {
  const pass = new PassThrough();
  req.once("error", (err) => pass.destroy(err));
  req.once("aborted", () => pass.destroy(new Error("the browser broke off the request")));
  return req.pipe(pass);
}

export function createUpstream(opts: UpstreamOptions): Upstream {
  const url = new URL(opts.baseUrl);
  const basePath = url.pathname === "/" ? "" : url.pathname;
  const pool = new Pool(url.origin, {
    connections: 128,
    keepAliveTimeout: 10_000,
    connectTimeout: Math.min(opts.timeoutMs, 10_000),
    // Our own timer (below) replaces headersTimeout: undici's would run during a slow upload.
    headersTimeout: 0,
    bodyTimeout: opts.timeoutMs,
  });

  function failure(err: unknown, timedOut: boolean): UpstreamFailure {
    if (timedOut) {
      return new UpstreamFailure(504, `${opts.label} did not answer within ${opts.timeoutMs / 1000} s. Try again, or raise UPSTREAM_TIMEOUT_MS.`);
    }
    const code = (err as { code?: string })?.code ?? (err as Error)?.name ?? "error";
    return new UpstreamFailure(502, `${opts.label} could not be reached (${code}). Check that it is running and that BASE_URL is right.`);
  }

  async function forward(req: IncomingMessage, res: ServerResponse, path: string, fopts: { withKey: boolean; headers: OutgoingHttpHeaders }) {
    const abort = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    let answered = false;
    const startTimer = () => {
      // An early answer (a 413 before the body ended) needs no timer any more.
      if (answered) return;
      timer ??= setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, opts.timeoutMs);
    };
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    // The browser went away: stop the upstream too (an aborted upload then leaves nothing behind).
    const onClose = () => {
      if (!res.writableFinished) abort.abort();
    };
    res.once("close", onClose);
    req.on("error", () => {});
    if (hasBody) req.once("end", startTimer);
    else startTimer();
    try {
      const up = await pool.request({
        path: basePath + path,
        method: req.method as "GET",
        headers: upstreamRequestHeaders(req.headers, fopts.withKey ? opts.apiKey : undefined),
        body: hasBody ? bodyOf(req) : undefined,
        signal: abort.signal,
      });
      answered = true;
      clearTimeout(timer);
      const headers = { ...browserResponseHeaders(up.headers), ...fopts.headers };
      // Chrome will not render a PDF under a sandbox CSP; its viewer cannot script our origin anyway.
      if (/^application\/pdf\b/i.test(String(headers["content-type"] ?? ""))) delete headers["content-security-policy"];
      // The answer is complete but the browser is still sending (an early 413): drop the rest.
      if (hasBody) res.once("finish", () => req.readableEnded || discardRest(req));
      res.writeHead(up.statusCode, headers);
      await pipeline(up.body, res);
    } catch (err) {
      clearTimeout(timer);
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      const f = failure(err, timedOut);
      sendJson(res, f.status, f.toBody(), fopts.headers);
    } finally {
      res.off("close", onClose);
    }
  }

  async function getJson(path: string, method: "GET" | "HEAD" = "GET") {
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, opts.timeoutMs);
    try {
      const up = await pool.request({
        path: basePath + path,
        method,
        headers: { "x-api-key": opts.apiKey, accept: "application/json" },
        signal: abort.signal,
      });
      const text = await up.body.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: up.statusCode, body };
    } catch (err) {
      throw failure(err, timedOut);
    } finally {
      clearTimeout(timer);
    }
  }

  return { forward, getJson, close: () => pool.close() };
}
