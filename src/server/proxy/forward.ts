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
import { encodeDeep } from "../../shared/deep-json";
import { type BodyTimeout, bodyTimeoutMessage, watchBody } from "../body-watch";
import { watchAnswer } from "./answer-watch";
import { browserResponseHeaders, upstreamRequestHeaders } from "./headers";
import { shapedUpstreamError } from "./upstream-error";
import type { Lane } from "./routes";
import { LANE_WORDS } from "./lane-gate";

export interface UpstreamOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Shown in error messages; never contains the key. */
  label: string;
  /** What to check when it cannot be reached (default: that it runs and BASE_URL is right). */
  unreachableHint?: string;
  /**
   * The upstream is Baseboard's own child process: a refused connection means it died and is
   * being restarted (its exit is seen a moment later), so the answer is 503 with Retry-After, as
   * it is once the restart is known, not a 502 (review 30a #4).
   */
  supervised?: boolean;
  /** Upstream connections per lane (defaults: 64 JSON, 32 files, 16 uploads). */
  connections?: Partial<Record<Lane, number>>;
  /** A streamed body that sends nothing for this long is cut with a 408 (default 30 s). */
  bodyIdleMs?: number;
  /** A browser that takes none of its answer for this long is cut (default 60 s). */
  sendIdleMs?: number;
}

export interface ForwardOptions {
  withKey: boolean;
  headers: OutgoingHttpHeaders;
  /** Which pool of upstream connections to use (default "json"). */
  lane?: Lane;
  /** Every connection of the lane was in use when this request came: it queued for one (lane-gate.ts). */
  laneWasFull?: boolean;
  /** The body, already read whole (JSON calls); otherwise the browser's body is streamed. */
  body?: Buffer;
  /**
   * Called with the upstream's answer (its body read whole: change endpoints answer small JSON)
   * before any of it goes back to the browser: the audit trail records the outcome first. What
   * it returns is sent instead of the upstream's body.
   */
  onAnswer?(status: number, headers: Record<string, string | string[] | undefined>, body: Buffer): Promise<Buffer | void>;
  /**
   * Called with an error answer (4xx/5xx, its small JSON body read whole) before it goes back,
   * for requests without onAnswer: the trail records a failed step with the service's words.
   */
  onErrorAnswer?(status: number, body: Buffer): Promise<void>;
  /** Each chunk of the browser's body as it goes to the upstream (streamed bodies only). */
  onBodyChunk?(chunk: Buffer): void;
  /** Added to the request upstream (after the browser's own headers are filtered). */
  upstreamHeaders?: Record<string, string>;
  /**
   * The proxy answered a failure itself (the upstream could not be reached, did not answer in
   * time, the body stalled): `applied` is false when the change cannot have reached the upstream
   * whole, undefined when it may have been applied all the same (no answer in time).
   */
  onFailed?(status: number, message: string, applied: false | undefined): Promise<void>;
  /** The request only reads: one the upstream dropped can be tried again as it is. */
  readOnly?: boolean;
}

/** How a forward ended, for the caller's log. */
/** `answered-late`: a change answered 504 at the timeout, whose upstream answer came after (recorded, not sent). */
export type ForwardOutcome = "answered" | "answered-late" | "client-aborted" | "client-stalled" | "failed";

/**
 * How long the answer to a change sent whole is still awaited after the client was answered 504
 * (the trail records it, the live stream announces it), in timeouts: past this the upstream is
 * given up on. Ten (5 minutes by default) cover a 10,000,000-row import (~100 s); not longer, as
 * each such change holds an upstream connection and its person's place meanwhile, and a hosted
 * upstream that never answers has no supervisor to end them.
 */
export const LATE_ANSWER_TIMEOUTS = 10;
/** An error answer read whole for onErrorAnswer at most this long (the service's are a few hundred bytes). */
const ERROR_ANSWER_MAX = 64 * 1024;

export interface Upstream {
  forward(req: IncomingMessage, res: ServerResponse, path: string, opts: ForwardOptions): Promise<ForwardOutcome>;
  /** A GET (or HEAD) of the upstream with the key, body read whole (small JSON only). */
  getJson(path: string, method?: "GET" | "HEAD"): Promise<{ status: number; body: unknown }>;
  /** A POST of a small JSON body with the key, answer read whole (the audit trail's before-images). */
  postJson(path: string, body: unknown): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: unknown }>;
  /** A long-lived GET with the key (the service's event stream), on its own connection, no timeout. */
  openStream(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response>;
  close(): Promise<void>;
}

/** JSON text of a body the proxy sends itself: a filter may nest 10,000 levels, past what JSON.stringify can write. */
function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (e instanceof RangeError) return encodeDeep(v);
    throw e;
  }
}

export class UpstreamFailure extends Error {
  constructor(
    readonly status: 502 | 503 | 504,
    message: string,
  ) {
    super(message);
  }
  /** No connection to the upstream was made (refused, no such host): nothing reached it. */
  neverSent = false;
  /** Seconds a 503 asks the client to wait before trying again. */
  retryAfterS = 5;
  toBody() {
    return errorBody(this.status === 504 ? "gateway_timeout" : this.status === 503 ? "unavailable" : "bad_gateway", this.message);
  }
}

/**
 * The upstream refused the key this proxy holds (401): a gateway error naming API_KEY, since the
 * browser can neither send a key (the proxy drops its own) nor fix it, and a 401 from /api means
 * "sign in" (decisions §8; review 46a #3: the service's "send it in the x-api-key header" was passed on).
 */
export function keyRefused(label: string): UpstreamFailure {
  const f = new UpstreamFailure(502, `${label} refused Baseboard's API key (HTTP 401), so nothing was read or changed: set API_KEY where Baseboard runs to a key it accepts, and restart Baseboard.`);
  // Refused before anything was done: nothing was applied.
  f.neverSent = true;
  return f;
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
export function discardRest(req: IncomingMessage): void {
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
 * breaks off the upstream request. The pass-through always has an error listener: while the
 * request waits for a free upstream connection nobody else listens to it yet, and an
 * unheard 'error' event would end the whole process.
 */
function bodyOf(req: IncomingMessage, onChunk?: (chunk: Buffer) => void): PassThrough {
  const pass = new PassThrough();
  pass.on("error", () => {});
  req.once("error", (err) => pass.destroy(err));
  req.once("aborted", () => pass.destroy(new Error("the browser broke off the request")));
  const piped = req.pipe(pass);
  // Beside the pipe, which already has req flowing: a listener added before it would lose chunks.
  if (onChunk) req.on("data", onChunk);
  return piped;
}

/** After a 408 the rest of the body will not be read: answer, then close the connection. */
function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.once("finish", () => req.socket.destroySoon());
}

/** The interface's Records calls: each answers a JSON body. */
const RECORDS_CALL = /\/v0\/record\/[^/]+\/[^/]+\/(?:query|update|insert|delete|distinct|fields|import)$/;

/**
 * An upstream error answer in the one shape (upstream-error.ts): its first 64 KB read, the rest
 * dropped. `empty`: the status of an answer with nothing in it where an answer is due, said as a 502.
 */
type UpstreamBody = AsyncIterable<Buffer> & { dump(opts?: { limit: number }): Promise<void> };

async function shapedErrorOf(status: number, body: UpstreamBody, label: string, empty?: number): Promise<{ status: number; body: Buffer }> {
  if (empty !== undefined) {
    await body.dump({ limit: ERROR_ANSWER_MAX }).catch(() => undefined);
    const said = errorBody("bad_gateway", `${label} answered HTTP ${empty} with nothing in it, where an answer is due; check BASE_URL, or tell whoever runs it.`);
    return { status: 502, body: Buffer.from(JSON.stringify(said)) };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let whole = true;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > ERROR_ANSWER_MAX) {
        whole = false;
        break;
      }
      chunks.push(chunk);
    }
  } catch {
    whole = false;
  }
  // The rest is dropped (undici reads on up to the limit to keep the connection, else closes it).
  if (!whole) await body.dump({ limit: ERROR_ANSWER_MAX }).catch(() => undefined);
  const shaped = shapedUpstreamError(status, whole ? Buffer.concat(chunks) : undefined, label);
  return { status: shaped.status, body: Buffer.from(JSON.stringify(shaped.body)) };
}

export function createUpstream(opts: UpstreamOptions): Upstream {
  const url = new URL(opts.baseUrl);
  const basePath = url.pathname === "/" ? "" : url.pathname;
  const bodyIdleMs = opts.bodyIdleMs ?? 30_000;
  const sendIdleMs = opts.sendIdleMs ?? 60_000;
  const poolOf = (connections: number) =>
    new Pool(url.origin, {
      connections,
      keepAliveTimeout: 10_000,
      connectTimeout: Math.min(opts.timeoutMs, 10_000),
      // Our own timer (below) replaces headersTimeout: undici's would run during a slow upload.
      headersTimeout: 0,
      bodyTimeout: opts.timeoutMs,
    });
  // Separate pools, so that slow uploads or downloads can hold only their own lane's connections.
  const pools: Record<Lane, Pool> = {
    json: poolOf(opts.connections?.json ?? 64),
    files: poolOf(opts.connections?.files ?? 32),
    uploads: poolOf(opts.connections?.uploads ?? 16),
  };

  function failure(err: unknown, timedOut: boolean, laneWasFull?: Lane, readOnly?: boolean): UpstreamFailure {
    if (err instanceof UpstreamFailure) return err;
    if (timedOut && laneWasFull) {
      // It may never have reached the upstream: the lane's connections were all held by others.
      return new UpstreamFailure(503, `Every connection this proxy keeps for ${LANE_WORDS[laneWasFull]} was in use for ${opts.timeoutMs / 1000} s (slow transfers of other people), so this request did not get through. Try again in a moment.`);
    }
    if (timedOut) {
      if (readOnly === false) return new UpstreamFailure(504, lateChangeMessage(false));
      return new UpstreamFailure(504, `${opts.label} did not answer within ${opts.timeoutMs / 1000} s. Try again, or raise UPSTREAM_TIMEOUT_MS.`);
    }
    const code = (err as { code?: string })?.code ?? (err as Error)?.name ?? "error";
    if (code === "ECONNREFUSED" && opts.supervised) {
      const down = new UpstreamFailure(503, `${opts.label} is restarting; try again in a moment.`);
      down.neverSent = true;
      down.retryAfterS = 2;
      return down;
    }
    // Our own child dropped the connection: it died (a kept-alive connection to it is reset, or
    // closed, before its exit is seen: review 31a #5). A read is as good as refused: 503, try
    // again. A change may or may not have been made before it died: 502, saying so.
    if (opts.supervised && ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"].includes(code)) {
      if (readOnly) {
        const down = new UpstreamFailure(503, `${opts.label} stopped while answering and is restarting; try again in a moment.`);
        down.retryAfterS = 2;
        return down;
      }
      return new UpstreamFailure(502, `${opts.label} stopped while this change was under way (${code}) and is restarting: whether the change was made cannot be told. Look before trying it again.`);
    }
    const f = new UpstreamFailure(502, `${opts.label} could not be reached (${code}). ${opts.unreachableHint ?? "Check that it is running and that BASE_URL is right."}`);
    // No connection was made: the request cannot have reached the upstream.
    f.neverSent = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"].includes(code);
    return f;
  }

  /** A change not answered in time: it may be made all the same (the upstream was not stopped, or cannot be). */
  function lateChangeMessage(stillAwaited: boolean): string {
    return `${opts.label} did not answer within ${opts.timeoutMs / 1000} s, so whether this change was made cannot be told yet: it may still be under way. Look before trying it again${
      stillAwaited ? " (when it ends, the activity log records how, and everyone's views are updated)" : ""
    }. For changes that take longer, raise UPSTREAM_TIMEOUT_MS.`;
  }

  async function forward(req: IncomingMessage, res: ServerResponse, path: string, fopts: ForwardOptions): Promise<ForwardOutcome> {
    const abort = new AbortController();
    let timedOut = false;
    // A change sent whole and recorded (onAnswer) that outlives the timeout: the client is told at
    // once that it cannot be told yet, and the upstream is not stopped (a local import went on
    // and was applied, unannounced and recorded as unknown: review 36a #3). Its answer, when it
    // comes, is recorded and announced as any; only not sent.
    let toldLate = false;
    let lateTimer: NodeJS.Timeout | undefined;
    const answerLate = async () => {
      toldLate = true;
      lateTimer = setTimeout(() => abort.abort(), LATE_ANSWER_TIMEOUTS * opts.timeoutMs);
      lateTimer.unref();
      const message = lateChangeMessage(true);
      await fopts.onFailed?.(504, message, undefined);
      if (!res.headersSent && !res.destroyed) sendJson(res, 504, errorBody("gateway_timeout", message), fopts.headers);
    };
    let bodyStalled: BodyTimeout | undefined;
    let clientGone = false;
    let clientStalled = false;
    let timer: NodeJS.Timeout | undefined;
    let answered = false;
    const startTimer = () => {
      // An early answer (a 413 before the body ended) needs no timer any more.
      if (answered) return;
      timer ??= setTimeout(() => {
        timedOut = true;
        if (fopts.onAnswer && (!streamed || req.readableEnded) && !res.headersSent) return void answerLate();
        abort.abort();
      }, opts.timeoutMs);
    };
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const streamed = hasBody && !fopts.body;
    // The browser went away: stop the upstream too (an aborted upload then leaves nothing behind).
    // Not a change the trail records whose request was sent whole: the upstream may apply it
    // anyway, so its answer is still awaited and recorded (only not sent to nobody).
    // Whether the upstream request was cut before its body was whole: then nothing was applied.
    let cutBeforeWhole = false;
    const onClose = () => {
      if (!res.writableFinished) {
        clientGone = true;
        const whole = !streamed || req.readableEnded;
        cutBeforeWhole = !whole;
        if (!(fopts.onAnswer && whole)) abort.abort();
      }
    };
    res.once("close", onClose);
    req.on("error", () => {});
    let stopWatch = () => {};
    let stopAnswerWatch = () => {};
    if (streamed) {
      req.once("end", startTimer);
      stopWatch = watchBody(req, {
        idleMs: bodyIdleMs,
        onTimeout: (kind) => {
          bodyStalled = kind;
          abort.abort();
        },
      });
    } else startTimer();
    const headers = upstreamRequestHeaders(req.headers, fopts.withKey ? opts.apiKey : undefined);
    if (fopts.body) headers["content-length"] = String(fopts.body.length);
    // A change the proxy records and publishes itself: the service's own event stream marks it
    // so the proxy does not publish it a second time as a change made outside Baseboard.
    if (fopts.onAnswer) headers["x-baseboard-origin"] = "proxy";
    Object.assign(headers, fopts.upstreamHeaders);
    try {
      const up = await pools[fopts.lane ?? "json"].request({
        path: basePath + path,
        method: req.method as "GET",
        headers,
        body: fopts.body ?? (hasBody ? bodyOf(req, fopts.onBodyChunk) : undefined),
        signal: abort.signal,
      });
      answered = true;
      clearTimeout(timer);
      const headers2 = { ...browserResponseHeaders(up.headers), ...fopts.headers };
      // Chrome will not render a PDF under a sandbox CSP; its viewer cannot script our origin anyway.
      if (/^application\/pdf\b/i.test(String(headers2["content-type"] ?? ""))) delete headers2["content-security-policy"];
      // The answer is complete but the browser is still sending (an early 413): drop the rest.
      if (streamed) res.once("finish", () => req.readableEnded || bodyStalled || discardRest(req));
      if (fopts.withKey && up.statusCode === 401) {
        await up.body.dump().catch(() => undefined);
        throw keyRefused(opts.label);
      }
      // Hosted: an error answer goes on in the one shape only, whatever the upstream wrote.
      // No answer at all where one is due (review 57a #3): a 304 nobody asked for (no If-None-Match
      // or If-Modified-Since), or a 204 to a Records call, which always answers JSON.
      const conditional = req.headers["if-none-match"] !== undefined || req.headers["if-modified-since"] !== undefined;
      const noAnswer = (up.statusCode === 304 && !conditional) || (up.statusCode === 204 && RECORDS_CALL.test(path));
      const failedAnswer = up.statusCode >= 400 || (up.statusCode >= 300 && up.statusCode !== 304) || noAnswer;
      const shaped = !opts.supervised && failedAnswer && req.method !== "HEAD" ? await shapedErrorOf(noAnswer ? 502 : up.statusCode, up.body, opts.label, noAnswer ? up.statusCode : undefined) : undefined;
      if (shaped) {
        headers2["content-type"] = "application/json; charset=utf-8";
        for (const h of ["content-encoding", "content-disposition", "etag", "last-modified", "cache-control", "location"]) delete headers2[h];
        headers2["cache-control"] = "no-store";
        // A 503 always says when to try again (decisions §9; review 57a #4: a 429 without one).
        if (shaped.status === 503 && headers2["retry-after"] === undefined) headers2["retry-after"] = "5";
      }
      if (fopts.onAnswer) {
        const raw = shaped?.body ?? Buffer.from(await up.body.arrayBuffer());
        const answer = (await fopts.onAnswer(shaped?.status ?? up.statusCode, up.headers, raw)) ?? raw;
        if (toldLate) return "answered-late";
        if (clientGone || res.destroyed) return "client-aborted";
        headers2["content-length"] = String(answer.length);
        delete headers2["transfer-encoding"];
        res.writeHead(shaped?.status ?? up.statusCode, headers2);
        res.end(answer);
        return "answered";
      }
      if (shaped) {
        await fopts.onErrorAnswer?.(shaped.status, shaped.body);
        if (clientGone || res.destroyed) return "client-aborted";
        headers2["content-length"] = String(shaped.body.length);
        delete headers2["transfer-encoding"];
        res.writeHead(shaped.status, headers2);
        res.end(shaped.body);
        return "answered";
      }
      const length = Number(up.headers["content-length"] ?? NaN);
      if (fopts.onErrorAnswer && up.statusCode >= 400 && length <= ERROR_ANSWER_MAX) {
        const raw = Buffer.from(await up.body.arrayBuffer());
        await fopts.onErrorAnswer(up.statusCode, raw);
        if (clientGone || res.destroyed) return "client-aborted";
        res.writeHead(up.statusCode, headers2);
        res.end(raw);
        return "answered";
      }
      res.writeHead(up.statusCode, headers2);
      // A browser that stops reading would otherwise hold this upstream connection for ever.
      stopAnswerWatch = watchAnswer(res, sendIdleMs, () => {
        clientStalled = true;
        res.destroy();
      });
      await pipeline(up.body, res);
      return "answered";
    } catch (err) {
      clearTimeout(timer);
      // Answered 504 already, and recorded as unknown: the upstream failed, or was given up on, after.
      if (toldLate) return "failed";
      if (clientStalled) return "client-stalled";
      if (clientGone || res.destroyed) {
        res.destroy();
        // A change the client stopped sending (an upload cut mid-file): never whole at the
        // upstream, so not made. Recorded as such, with its key when it was read (review 54a #2:
        // it stayed "unknown", naming no file). 499: the client closed the request (nginx's code).
        if (cutBeforeWhole) await fopts.onFailed?.(499, "The client went away before it had sent the whole request: nothing was stored.", false);
        return "client-aborted";
      }
      if (res.headersSent) {
        res.destroy();
        return "failed";
      }
      if (bodyStalled) {
        const message = bodyTimeoutMessage(bodyStalled, bodyIdleMs);
        // The body never reached the upstream whole: nothing was applied.
        await fopts.onFailed?.(408, message, false);
        closeAfterAnswer(req, res);
        sendJson(res, 408, errorBody("request_timeout", message), { ...fopts.headers, connection: "close" });
        return "failed";
      }
      const f = failure(err, timedOut, fopts.laneWasFull ? (fopts.lane ?? "json") : undefined, fopts.readOnly);
      // Recorded before it is answered, as every outcome: refused connections and a full lane
      // never reached the upstream; a timeout or a reset may have been applied all the same.
      await fopts.onFailed?.(f.status, f.message, f.status === 503 || f.neverSent ? false : undefined);
      sendJson(res, f.status, f.toBody(), f.status === 503 ? { ...fopts.headers, "retry-after": String(f.retryAfterS) } : fopts.headers);
      return "failed";
    } finally {
      clearTimeout(lateTimer);
      stopWatch();
      stopAnswerWatch();
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
      const up = await pools.json.request({
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

  async function postJson(path: string, json: unknown) {
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, opts.timeoutMs);
    try {
      const up = await pools.json.request({
        path: basePath + path,
        method: "POST",
        headers: { "x-api-key": opts.apiKey, accept: "application/json", "content-type": "application/json" },
        body: jsonText(json),
        signal: abort.signal,
      });
      const text = await up.body.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: up.statusCode, headers: up.headers, body };
    } catch (err) {
      throw failure(err, timedOut);
    } finally {
      clearTimeout(timer);
    }
  }

  const openStream = (path: string, headers: Record<string, string>, signal: AbortSignal) =>
    fetch(new URL(basePath + path, opts.baseUrl), { headers: { ...headers, "x-api-key": opts.apiKey }, signal });

  return { forward, getJson, postJson, openStream, close: async () => void (await Promise.all(Object.values(pools).map((p) => p.close()))) };
}
