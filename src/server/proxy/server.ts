/**
 * The proxy's request handler: Host check first (DNS rebinding), then /api (allow list, CSRF
 * rules, key attached, streamed), the login page when a password is set, and the app itself
 * (dist/ or, in dev, Vite's middleware). Every /api answer it makes itself uses the one error
 * shape; it never answers with CORS headers.
 */
import path from "node:path";
import { multipartKey, multipartKeySniffer } from "./multipart-key";
import { trailRefusal, whyUnwritable } from "../team/store/why-unwritable";
import { createStoreHealth } from "../team/store/store-health";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { errorBody } from "../../shared/errors";
import { UNDO_HEADER } from "../../shared/record-writes";
import { UPLOAD_OWNER_HEADER } from "../../shared/storage";
import { type AppConfig, LOGIN_REQUIRED_SUBCODE } from "../../shared/meta";
import { buildAppConfig, type CatalogCache, type ConfigFile, createCatalogCache } from "./app-config";
import type { ProxyConfig } from "./config";
import { discardRest, sendJson, type Upstream, UpstreamFailure } from "./forward";
import { createBufferBudget, readJsonBody } from "./json-body";
import { createLaneGate } from "./lane-gate";
import { apiRequestRefusal, checkHost, ownHosts } from "./guard";
import { API_SECURITY_HEADERS, PAGE_SECURITY_HEADERS } from "./headers";
import { healthReport, HOSTED, serviceUnavailable, type ServiceStatus } from "./health";
import { type ApiRoute, matchApiRoute } from "./routes";
import { EXISTS_PREFIX, objectExists } from "./object-exists";
import type { SessionGate } from "./session";
import { personKey, SHARED_PASSWORD, SINGLE_USER, type Actor, type Resource } from "../team/contract";
import { recordRefusedPeopleChange } from "../team/api/people-api";
import { decide, mayRead } from "../team/grants/permissions";
import { checkRequest, checkTableCreation } from "../team/grants/request-access";
import { jsonObjectOf, parseJsonText } from "../../shared/json-text";
import { notJsonBody, notPlainBody, notUtf8 } from "../json-request";
import type { TeamGate } from "../team/team-gate";
import { answerAudit, nameActors } from "../team/audit/audit-api";
import { type Auditor, CHANGE_ENDPOINTS, type ChangeRequest, undoOf } from "../team/audit/auditor";
import { createStaticHandler } from "./static";
import type { LiveHub } from "../team/events/live-hub";
import { changeEventOf, unsureChangeEventOf } from "../team/events/change-event";
import { createZipDownloads, ZIP_PATH } from "./zip/zip-download";
import { isExtension, missingExtension } from "./extension-capability";

type ForwardRoute = Extract<ApiRoute, { kind: "forward" }>;

/** How long a refused upload's key is waited for (its body's first part) before it is recorded without. */
const UPLOAD_KEY_WAIT_MS = 2_000;

/** A catalog's tables as `db/slug`. */
const tableNames = (cfg: AppConfig): Set<string> => new Set(cfg.databases.flatMap((d) => d.tables.map((t) => `${d.id}/${t.slug}`)));

export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

export interface ProxyDeps {
  config: ProxyConfig;
  /** The port actually bound (config.port may be 0). */
  port: number;
  upstream: Upstream;
  upstreamInfo: { kind: "local" | "hosted"; label: string; file?: ConfigFile; fileName: string };
  /** The upstream's catalog between requests, shared with the activity log (default: one of its own). */
  catalog?: CatalogCache;
  /** The embedded service's supervisor, for /api/health and 503 while it restarts (default: hosted). */
  service?: ServiceStatus;
  /** Present when BASEBOARD_PASSWORD is set (and no team gate is given: the gate then holds it). */
  sessions?: SessionGate;
  /** People, sessions and grants (src/server/team): who is asking and what they may do. */
  team?: TeamGate;
  /** The audit trail: every change recorded before it is forwarded and before its answer goes back. */
  audit?: Auditor;
  /** Live events (GET /api/events) and presence: every applied change is published here. */
  live?: LiveHub;
  /** Vite's middleware in dev mode; otherwise dist/ is served. */
  dev?: Middleware;
  log(line: string): void;
}

/** Signed URLs (and keyless public files) are meant to be shared, so other sites may embed them. */
const SIGNED_HEADERS: OutgoingHttpHeaders = { ...API_SECURITY_HEADERS, "cross-origin-resource-policy": "cross-origin" };

export function createProxyHandler(deps: ProxyDeps) {
  const { config } = deps;
  const own = ownHosts({ ...config, port: deps.port });
  const serveStatic = createStaticHandler(config.distDir, PAGE_SECURITY_HEADERS);
  const apiError = (res: ServerResponse, status: number, body: ReturnType<typeof errorBody>, headers = API_SECURITY_HEADERS) =>
    sendJson(res, status, body, headers);
  const service = deps.service ?? HOSTED;
  // A shared PostgreSQL store can be down while this proxy is up (SQLite files go with it).
  const teamStore = deps.team?.store;
  const storeHealth = teamStore?.kind === "postgres" ? createStoreHealth(() => teamStore.ping()) : undefined;
  const zips = createZipDownloads(deps.upstream, { sendIdleMs: config.limits.sendIdleMs, log: deps.log });

  const jsonBudget = createBufferBudget(config.limits.jsonBufferBytes);
  const lanes = createLaneGate(config.limits.connections);
  /** A JSON body within the proxy's limits (time, size, the memory all bodies share). */
  const readJson = (req: IncomingMessage) => readJsonBody(req, { idleMs: config.limits.bodyIdleMs, totalMs: config.limits.jsonBodyMs, budget: jsonBudget });
  const info = config.logLevel === "info" ? deps.log : () => {};
  const where = (req: IncomingMessage) => `${req.method} ${(req.url ?? "").split("?")[0].slice(0, 200)}`;

  /** Who is asking: the team gate's answer, or (without one) the shared password or the single user. */
  async function identify(req: IncomingMessage): Promise<Actor | undefined> {
    if (deps.team) return deps.team.identify(req);
    if (deps.sessions) return deps.sessions.isAuthenticated(req) ? SHARED_PASSWORD : undefined;
    return SINGLE_USER;
  }
  const nobodySignsIn = () => (deps.team ? deps.team.mode() === "single-user" : !deps.sessions);

  /** Tables and buckets the person may not read are not listed to them anywhere. */
  function visibleTo<T extends { databases: { id: string; tables: { slug: string }[] }[]; buckets: { name: string }[] }>(actor: Actor, body: T): T {
    if (actor.grants.length === 0) return body;
    return {
      ...body,
      databases: body.databases.map((d) => ({ ...d, tables: d.tables.filter((t) => mayRead(actor, `table:${d.id}/${t.slug}` as Resource)) })),
      buckets: body.buckets.filter((b) => mayRead(actor, `bucket:${b.name}` as Resource)),
    };
  }

  /**
   * An upstream that does not describe itself is known by the config file alone: a table or
   * bucket the file does not list has no primary key, grant or "none" Baseboard could apply
   * (every role could read and change it, and its changes were recorded without what they
   * overwrote: review 29a #3). Said, with what to do; undefined when listed (or the upstream
   * describes itself).
   */
  const catalogCache = deps.catalog ?? createCatalogCache(deps.upstream, deps.upstreamInfo);
  async function unlistedTarget(route: ForwardRoute): Promise<string | undefined> {
    if (deps.upstreamInfo.kind !== "hosted" || !deps.upstreamInfo.file || route.target === undefined) return undefined;
    if (route.access.on !== "table" && route.access.on !== "bucket") return undefined;
    const cfg = (await catalogCache.get().catch(() => undefined))?.config;
    if (!cfg || cfg.capabilities.meta !== false) return undefined;
    const listed =
      route.access.on === "table"
        ? cfg.databases.some((d) => d.tables.some((t) => `${d.id}/${t.slug}` === route.target))
        : cfg.buckets.some((b) => b.name === route.target);
    if (listed) return undefined;
    const what = route.access.on === "table" ? `Table ${route.target}` : `Bucket ${route.target}`;
    // The file's own name, not where it is on the server (decisions §9: no paths in messages; review 49a #4).
    return `${what} is not listed in ${path.basename(deps.upstreamInfo.fileName ?? "")} (BASEBOARD_CONFIG): with an upstream that does not describe itself, Baseboard serves only what that file lists (a table with its primary key), so that roles, grants and the activity log apply to it. Add it there and restart.`;
  }

  /**
   * For a request refused by role or grant: the 404 its table or bucket would get if it does not
   * exist at all (review 38a #5: a viewer writing to "demo/nope" was told to ask for editor access
   * to it, an editor that it does not exist). A hidden one exists: still the 403. Only where the
   * upstream describes what it has (or the config file lists it).
   */
  async function absentTarget(route: ForwardRoute): Promise<string | undefined> {
    // A job's target is its bucket.
    const on = route.access.on === "job" ? "bucket" : route.access.on;
    if (route.target === undefined || (on !== "table" && on !== "bucket") || route.endpoint === "import") return undefined;
    const cfg = (await catalogCache.get(route.target).catch(() => undefined))?.config;
    if (!cfg || (cfg.capabilities.meta === false && !deps.upstreamInfo.file)) return undefined;
    if (on === "table") {
      if (tableNames(cfg).has(route.target)) return undefined;
      const [db, slug] = route.target.split("/");
      return `No table "${slug}" in database "${db}".`;
    }
    return cfg.buckets.some((b) => b.name === route.target) ? undefined : `There is no bucket "${route.target}".`;
  }

  /**
   * A zip the upstream cannot fill, refused before a link is made (review 29a #10: it made a zip
   * holding only "_not-included.txt"): a bucket it does not have, one whose files it never
   * serves (`forbidden`), folders where it cannot list. The permission check comes after, in
   * `zips.start`; a body it cannot read is said there too.
   */
  async function zipRefusal(body: unknown): Promise<{ status: number; body: ReturnType<typeof errorBody> } | undefined> {
    const b = body as { bucket?: unknown; items?: unknown } | undefined;
    if (!b || typeof b !== "object" || typeof b.bucket !== "string") return undefined;
    const cfg = (await catalogCache.get(b.bucket).catch(() => undefined))?.config;
    // An upstream that describes nothing, with no config file: nothing known to refuse by.
    if (!cfg || (cfg.capabilities.meta === false && !deps.upstreamInfo.file)) return undefined;
    const bucket = cfg.buckets.find((x) => x.name === b.bucket);
    if (!bucket) return { status: 404, body: errorBody("not_found", `No bucket "${b.bucket.slice(0, 100)}": nothing to zip.`) };
    if (bucket.permission === "forbidden") return { status: 403, body: errorBody("forbidden", `Bucket ${bucket.name} is forbidden: the service serves none of its files, so none can be zipped.`) };
    const folders = Array.isArray(b.items) && b.items.some((i) => typeof i === "string" && i.endsWith("/"));
    if (folders && cfg.capabilities.list !== true) {
      return { status: 400, body: errorBody("validation_error", `Folders cannot be zipped here: the service at ${deps.upstreamInfo.label} cannot list a bucket's files (an extension of Baseboard's local service). Select the files themselves.`) };
    }
    return undefined;
  }

  /**
   * A local-service extension a hosted upstream does not declare: said here (review 29a #10), not
   * its bare 404. Declared means described by the upstream itself (/v0/meta) or by the config
   * file; with neither, nothing is known and the call goes through as before. The interface's
   * own endpoints never wait for the catalog.
   */
  async function notOffered(route: ForwardRoute): Promise<string | undefined> {
    if (deps.upstreamInfo.kind !== "hosted" || !isExtension(route.endpoint)) return undefined;
    const cfg = (await catalogCache.get().catch(() => undefined))?.config;
    // Without the catalog nothing else is known, but that it has none: the proxy asked it.
    if (!cfg || (cfg.capabilities.meta === false && !deps.upstreamInfo.file && route.endpoint !== "meta")) return undefined;
    return missingExtension(route.endpoint, cfg.capabilities, `The service at ${deps.upstreamInfo.label}`);
  }

  /** A change the proxy answers itself before sending it on (nothing changed): recorded as asked and failed, with why. */
  async function unsent(req: IncomingMessage, route: ForwardRoute, actor: Actor | undefined, status: number, message: string, body?: Buffer) {
    if (!actor || !deps.audit || !CHANGE_ENDPOINTS.has(route.endpoint)) return;
    const change = { actor, address: req.socket.remoteAddress ?? "", method: req.method ?? "POST", endpoint: route.endpoint, upstreamPath: route.upstreamPath, target: route.target, body };
    await deps.audit.unanswered(change, status, message);
  }

  /** Forwards, and notes a client that went away (info: it is the client's choice, not our fault). */
  async function forward(req: IncomingMessage, res: ServerResponse, route: ForwardRoute, withKey: boolean, headers: OutgoingHttpHeaders, actor?: Actor) {
    // The embedded service is restarting (or down): say so now rather than send to a closed port.
    const down = serviceUnavailable(service);
    if (down) {
      if (actor && deps.audit && CHANGE_ENDPOINTS.has(route.endpoint)) {
        // A change asked for now is recorded as failed, with what it asked (its JSON body).
        const read = route.jsonBody ? await readJson(req) : undefined;
        await unsent(req, route, actor, 503, down.body.message, read?.kind === "ok" ? read.body : undefined);
        if (read?.kind === "ok") read.release();
      }
      if (req.method !== "GET" && req.method !== "HEAD") res.once("finish", () => req.readableEnded || discardRest(req));
      return sendJson(res, 503, down.body, { ...headers, ...down.headers });
    }
    const notHere = (await unlistedTarget(route)) ?? (await notOffered(route));
    if (notHere) {
      await unsent(req, route, actor, 404, notHere);
      if (req.method !== "GET" && req.method !== "HEAD") res.once("finish", () => req.readableEnded || discardRest(req));
      return sendJson(res, 404, errorBody("not_found", notHere), headers);
    }
    // A compressed body is not read here, nor by the service: refused before anything is sent.
    const encoded = req.method !== "GET" && req.method !== "HEAD" ? notPlainBody(req.headers["content-encoding"]) : undefined;
    if (encoded) {
      await unsent(req, route, actor, 400, encoded);
      res.once("finish", () => req.readableEnded || discardRest(req));
      return sendJson(res, 400, errorBody("validation_error", encoded), headers);
    }
    let body: Buffer | undefined;
    /** The body as read once here, as the service reads it, for the checks and the trail. */
    let json: unknown;
    let release = () => {};
    if (route.jsonBody) {
      const read = await readJson(req);
      if (read.kind === "aborted") return info(`client went away while sending ${where(req)} (after ${read.received} bytes)`);
      if (read.kind === "refused") {
        // A 413 lets the browser finish sending (it shows no answer before); the rest close the connection.
        if (read.status === 413) {
          discardRest(req);
          return sendJson(res, 413, read.body, headers);
        }
        res.once("finish", () => req.socket.destroySoon());
        const retry = read.status === 503 ? { "retry-after": "1" } : {};
        return sendJson(res, read.status, read.body, { ...headers, ...retry, connection: "close" });
      }
      body = read.body;
      release = read.release;
      // What the upstream could not read is not checked (permissions, the trail) as some other body;
      // bytes that are not UTF-8 are said as the service says them (review 51a #4).
      const unreadable = notUtf8(body);
      const readable = unreadable ? { ok: false as const, message: unreadable } : parseJsonText(body.toString("utf8"));
      if (!readable.ok) {
        release();
        await unsent(req, route, actor, 400, readable.message);
        return sendJson(res, 400, errorBody("validation_error", readable.message), headers);
      }
      json = readable.value;
    }
    // Decided before anything reaches the upstream, and before a turn in the lane is waited for
    // (a refusal needs no upstream connection: it waited behind the person's slow transfers);
    // a body the check needs (joins, jobs) was read above.
    const change: ChangeRequest | undefined = actor && {
      actor,
      address: req.socket.remoteAddress ?? "",
      method: req.method ?? "GET",
      endpoint: route.endpoint,
      upstreamPath: route.upstreamPath,
      target: route.target,
      body,
      ...(route.jsonBody ? { json } : {}),
      size: Number(req.headers["content-length"]) || undefined,
      undoOf: undoOf(req.headers[UNDO_HEADER]),
    };
    let decision: ReturnType<typeof checkTableCreation> = actor ? checkRequest(actor, route, json) : { allowed: true };
    // An import into a table the catalog lacks creates it (admins only: review 27a #8).
    if (actor && decision.allowed && route.endpoint === "import" && actor.role !== "admin") {
      const cfg = (await catalogCache.get(route.target).catch(() => undefined))?.config;
      decision = checkTableCreation(actor, route.target ?? "", cfg && tableNames(cfg));
    }
    if (change && !decision.allowed && decision.status === 503) {
      await deps.audit?.unanswered(change, 503, decision.message);
      release();
      res.once("finish", () => req.readableEnded || discardRest(req));
      return sendJson(res, 503, errorBody("unavailable", decision.message), { ...headers, "retry-after": "5" });
    }
    const absent = change && !decision.allowed ? await absentTarget(route) : undefined;
    if (change && absent) {
      await deps.audit?.unanswered(change, 404, absent);
      release();
      if (!route.jsonBody && req.method !== "GET" && req.method !== "HEAD") res.once("finish", () => req.readableEnded || discardRest(req));
      return sendJson(res, 404, errorBody("not_found", absent), headers);
    }
    if (change && !decision.allowed) {
      // A refused upload is recorded with the key it asked for (its file is not read).
      const uploadKey = deps.audit && route.endpoint === "upload" ? await multipartKey(req, UPLOAD_KEY_WAIT_MS) : undefined;
      await deps.audit?.refused({ ...change, uploadKey }, decision.message);
      release();
      if (!route.jsonBody && req.method !== "GET" && req.method !== "HEAD") res.once("finish", () => req.readableEnded || discardRest(req));
      return sendJson(res, 403, errorBody("forbidden", decision.message), headers);
    }
    // One person's slow transfers hold only their share of the lane's upstream connections;
    // their further requests wait for one of their own to finish. A person is one holder
    // however many sessions they sign in (three sessions took three shares); the shared
    // password and the single user are everyone, so there each session (else address) is one.
    const holder = (actor && personKey(actor)) ?? actor?.sessionId ?? `${actor?.email ?? ""}@${req.socket.remoteAddress ?? ""}`;
    const gone = new AbortController();
    const onGone = () => gone.abort();
    res.once("close", onGone);
    const entry = await lanes.enter(route.lane, holder, { waitMs: config.timeoutMs, signal: gone.signal });
    res.off("close", onGone);
    if (!entry.ok) {
      release();
      if (gone.signal.aborted) return info(`client went away while waiting for its turn: ${where(req)}`);
      if (change && deps.audit && CHANGE_ENDPOINTS.has(route.endpoint)) await deps.audit.unanswered(change, 503, entry.message);
      if (!route.jsonBody && req.method !== "GET" && req.method !== "HEAD") res.once("finish", () => req.readableEnded || discardRest(req));
      return sendJson(res, 503, errorBody("unavailable", entry.message), { ...headers, "retry-after": "5" });
    }
    try {
      let onAnswer: Parameters<Upstream["forward"]>[3]["onAnswer"];
      let onFailed: Parameters<Upstream["forward"]>[3]["onFailed"];
      let onBodyChunk: ((chunk: Buffer) => void) | undefined;
      let onErrorAnswer: Parameters<Upstream["forward"]>[3]["onErrorAnswer"];
      let upstreamHeaders: Record<string, string> | undefined;
      if (actor && change) {
        if (route.access.on === "meta" && actor.grants.some((g) => g.level === "none")) {
          release();
          const meta = await deps.upstream.getJson("/v0/meta").catch(() => undefined);
          if (meta?.status === 200 && meta.body && typeof meta.body === "object") return sendJson(res, 200, visibleTo(actor, meta.body as never), headers);
        }
        if (deps.audit && CHANGE_ENDPOINTS.has(route.endpoint)) {
          // Fail closed: a change the trail cannot record is not made.
          try {
            const pending = await deps.audit.beforeChange(change);
            upstreamHeaders = pending.upstreamHeaders;
            const tab = typeof req.headers["x-baseboard-tab"] === "string" ? req.headers["x-baseboard-tab"].slice(0, 64) : undefined;
            // An upload the service refuses is recorded with the key it asked for: read from the
            // body's start as it goes to the service (its answer then names none).
            const sniffer = route.endpoint === "upload" ? multipartKeySniffer(req.headers) : undefined;
            if (sniffer) {
              onBodyChunk = (chunk) => {
                sniffer.feed(chunk);
                if (sniffer.done && onBodyChunk) req.off("data", onBodyChunk);
              };
            }
            onAnswer = async (status, answerHeaders, answer) => {
              if (sniffer) {
                // Refused before its key came (from the headers alone): read on a moment for it.
                if (status >= 300 && !sniffer.done) req.resume();
                change.uploadKey = status >= 300 ? await sniffer.settled(UPLOAD_KEY_WAIT_MS) : sniffer.key();
              }
              const { applied, answer: forClient } = await pending.finish(status, answerHeaders, answer);
              const publish = (event: ReturnType<typeof changeEventOf>) =>
                // Not awaited: the person who made the change does not wait for the others to hear of it.
                event && deps.live?.publish(event).catch((e) => deps.log(`live events: could not publish a change: ${(e as Error).message}`));
              // A storage job still running has moved nothing yet: heard of when it has ended, by
              // every tab, the one that started it too (it may have sent it to the background: its
              // listing is read again there, without a notice of its own action; review 46b #8).
              if (applied?.ended && deps.live) void applied.ended.then((done) => done && publish(changeEventOf(done, actor, tab)));
              else if (applied && deps.live) publish(changeEventOf(applied, actor, tab));
              return forClient;
            };
            onFailed = async (status, message, applied) => {
              if (sniffer) change.uploadKey = sniffer.key() ?? (await sniffer.settled(0));
              const unsure = await pending.failed(status, message, applied);
              // It may have been made: the others read its table again (the service's own event of
              // it is left to this proxy, which never heard the answer).
              const event = unsure && deps.live ? unsureChangeEventOf(unsure, actor, tab) : undefined;
              if (event) deps.live?.publish(event).catch((e) => deps.log(`live events: could not publish a change: ${(e as Error).message}`));
            };
          } catch (e) {
            release();
            if (e instanceof UpstreamFailure) {
              // What the trail reads before a change (the Records it overwrites) could not be read:
              // the upstream is down, not the trail. Said as for any request, and recorded as failed.
              await deps.audit.unanswered(change, e.status, e.message);
              if (!route.jsonBody) res.once("finish", () => req.readableEnded || discardRest(req));
              return sendJson(res, e.status, e.toBody(), e.status === 503 ? { ...headers, "retry-after": String(e.retryAfterS) } : headers);
            }
            deps.log(`audit trail: cannot write (${(e as Error).message}); refused ${where(req)}`);
            if (!route.jsonBody) res.once("finish", () => req.readableEnded || discardRest(req));
            return sendJson(res, 503, errorBody("unavailable", trailRefusal(e)), { ...headers, "retry-after": "5" });
          }
        } else if (deps.audit && (route.endpoint === "upload-start" || route.endpoint === "upload-part" || (route.endpoint === "upload-session" && req.method === "DELETE"))) {
          // A step of a resumable upload is no change by itself (its completion is): one the
          // service refuses (someone else's session: it keeps who started it; review 38a #2) or
          // fails (a bad size, a part of the wrong length; review 46a #5) is recorded, with its
          // words, before the answer goes back.
          const audit = deps.audit;
          onErrorAnswer = async (status, raw) => {
            const message = jsonObjectOf(raw)?.message;
            const said = typeof message === "string" ? message : `The service answered HTTP ${status}.`;
            const write = status === 403 ? audit.refused(change, `The service refused it: ${said}`) : audit.unanswered(change, status, said);
            await write.catch((e) => deps.log(`audit trail: could not record a failed step: ${(e as Error).message}`));
          };
        }
      }
      let outcome;
      try {
        // A resumable upload is continued only by the person who started it: the service keeps
        // and checks this tag (the browser's own header of the name never gets past the allow list).
        const owner = actor && route.endpoint.startsWith("upload-") ? personKey(actor) : undefined;
        if (owner) upstreamHeaders = { ...upstreamHeaders, [UPLOAD_OWNER_HEADER]: owner };
        const a = route.access;
        const readOnly = a.on === "table" || a.on === "bucket" ? a.action === "read" : a.on !== "job";
        outcome = await deps.upstream.forward(req, res, route.upstreamPath, { withKey, headers, lane: route.lane, laneWasFull: entry.queued, body, onAnswer, onFailed, onErrorAnswer, onBodyChunk, upstreamHeaders, readOnly });
      } finally {
        release();
      }
      if (outcome === "answered-late") deps.log(`the upstream answered ${where(req)} after the client was told it timed out (UPSTREAM_TIMEOUT_MS); recorded and announced`);
      else if (outcome === "client-aborted") info(`client went away during ${where(req)}`);
      else if (outcome === "client-stalled") info(`client stopped reading ${where(req)}: cut after ${config.limits.sendIdleMs / 1000} s`);
    } finally {
      entry.leave();
    }
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, host: string, rawUrl: string, pathname: string) {
    const method = req.method ?? "GET";
    const route = matchApiRoute(method, rawUrl);
    if (route.kind === "forward" && route.signed) {
      // The signature is the authorization: no key, no session, no same-origin rule.
      return forward(req, res, route, false, SIGNED_HEADERS);
    }
    const safe = method === "GET" || method === "HEAD";
    const site = req.headers["sec-fetch-site"];
    if (route.kind === "forward" && route.endpoint === "get-file" && (site === "cross-site" || site === "same-site") && nobodySignsIn()) {
      // A file link opened from elsewhere (the app's "public URL"): forwarded without the key,
      // so the upstream serves it only if its bucket is public, as it would to anyone.
      return forward(req, res, route, false, SIGNED_HEADERS);
    }
    const refusal = apiRequestRefusal(req.headers, host, safe, config.publicOrigin);
    if (refusal) {
      // A change refused as cross-site is recorded like any refused change: under whoever's
      // session it carried (a page elsewhere may have sent it in their name), else as nobody.
      if (deps.audit && route.kind === "forward" && CHANGE_ENDPOINTS.has(route.endpoint)) {
        const actor = await identify(req).catch(() => undefined);
        // What it asked, as for any refused change: its JSON body, within the usual limits.
        const read = route.jsonBody ? await readJson(req) : undefined;
        const body = read?.kind === "ok" ? read.body : undefined;
        const change = { actor, address: req.socket.remoteAddress ?? "", method, endpoint: route.endpoint, upstreamPath: route.upstreamPath, target: route.target, body };
        try {
          await deps.audit.refused(change, refusal);
        } finally {
          if (read?.kind === "ok") read.release();
        }
      } else if (deps.audit && !safe && /^\/api\/people(\/|$)/.test(pathname)) {
        // A people change sent from another site, recorded like one refused to a non-admin.
        const audit = deps.audit;
        // Under whoever's session it carried (a page elsewhere may have sent it in their name).
        const actor = (await identify(req).catch(() => undefined)) ?? { email: "(not signed in)", kind: "unknown" };
        const address = req.socket.remoteAddress ?? "";
        await recordRefusedPeopleChange(req, method, pathname, (what) => audit.peopleChange({ actor, address, method, path: pathname, what }), refusal);
      }
      return apiError(res, 403, errorBody("forbidden", refusal));
    }
    if (pathname === "/api/health" && safe) {
      const health = healthReport(service, await storeHealth?.());
      return apiError(res, health.status, health.body as never);
    }
    const actor = await identify(req);
    if (!actor) {
      // A session that ended says why (an admin reset the password, say), for the app to show.
      const why = await deps.team?.whyEnded(req);
      return apiError(res, 401, errorBody("auth_error", why ? `${why} (open /login)` : "Sign in to Baseboard first (open /login).", LOGIN_REQUIRED_SUBCODE));
    }
    const catalog = async () => {
      const result = await buildAppConfig(deps.upstream, deps.upstreamInfo);
      if (result.status !== 200) return { tables: [], buckets: [] };
      const cfg = result.body as AppConfig;
      return { tables: [...tableNames(cfg)], buckets: cfg.buckets.map((b) => b.name) };
    };
    const audit = deps.audit;
    const recordPeople =
      audit &&
      (async (what: Parameters<Auditor["peopleChange"]>[0]["what"]) => {
        try {
          return await audit.peopleChange({ actor, address: req.socket.remoteAddress ?? "", method, path: pathname, what });
        } catch (e) {
          // The answer says the log cannot be written; its own words are for the operator.
          deps.log(`audit trail: cannot write (${(e as Error).message}); refused ${method} ${pathname}`);
          throw e;
        }
      });
    if (deps.team && /^\/api\/(me|people)(\/|$)/.test(pathname) && (await deps.team.handleApi(req, res, pathname, actor, catalog, recordPeople))) return;
    if (pathname === "/api/audit" && safe) {
      if (!deps.audit) return apiError(res, 404, errorBody("not_found", "This proxy keeps no activity log."));
      const answer = await answerAudit(deps.audit.log, actor, new URL(rawUrl, "http://x").searchParams);
      if (answer.status === 200 && deps.team?.mode() === "people") {
        nameActors((answer.body as { items: { actor: string }[] }).items, await deps.team.people.names().catch(() => new Map<string, string>()));
      }
      return apiError(res, answer.status, answer.body as never);
    }
    if (pathname === "/api/events" && method === "GET") {
      if (!deps.live) return apiError(res, 404, errorBody("not_found", "This proxy has no live events."));
      const last = req.headers["last-event-id"] ?? new URL(rawUrl, "http://x").searchParams.get("lastEventId") ?? undefined;
      return deps.live.handleEvents(req, res, actor, typeof last === "string" ? last : undefined, () => identify(req));
    }
    if (pathname === "/api/presence" && method === "POST") {
      if (!deps.live) return apiError(res, 404, errorBody("not_found", "This proxy has no live events."));
      const read = await readJson(req);
      if (read.kind !== "ok") return read.kind === "aborted" ? undefined : sendJson(res, read.status, read.body, API_SECURITY_HEADERS);
      const problem = notJsonBody(req.headers, read.body);
      const parsed = parseJsonText(read.body.toString("utf8"));
      read.release();
      if (problem) return apiError(res, 400, errorBody("validation_error", problem));
      const body = parsed.ok ? (parsed.value ?? {}) : undefined;
      if (body === undefined) return apiError(res, 400, errorBody("validation_error", "The body must be JSON: {\"tab\", \"view\", \"record\"?, \"editing\"?}."));
      // A table or bucket nobody has is 404, as everywhere (review 48a #5: presence took it); one
      // hidden from this person is the hub's 403.
      const view = (body as { view?: unknown }).view;
      const named = typeof view === "string" ? /^(?:table|bucket):(.+)$/.exec(view)?.[1] : undefined;
      if (named !== undefined) {
        const { config } = await catalogCache.get(named);
        const known = config && (config.buckets.some((b) => `bucket:${b.name}` === view) || config.databases.some((d) => d.tables.some((t) => `table:${d.id}/${t.slug}` === view)));
        if (config && !known) return apiError(res, 404, errorBody("not_found", `There is no ${String(view).replace(":", " ")}.`));
      }
      const answer = await deps.live.setPresence(actor, body);
      if (answer.status === 204) {
        res.writeHead(204, API_SECURITY_HEADERS);
        return void res.end();
      }
      return apiError(res, answer.status, answer.body as never);
    }
    if (pathname === "/api/config" && safe) {
      const down = serviceUnavailable(service);
      if (down) return apiError(res, 503, down.body, { ...API_SECURITY_HEADERS, ...down.headers });
      const result = await buildAppConfig(deps.upstream, deps.upstreamInfo);
      catalogCache.put(result);
      if (result.status >= 500) deps.log(`GET /api/config: ${(result.body as { message: string }).message}`);
      // A 503 (a store that is down) says when to try again, as every 503 does (review 46a #4).
      const retry = result.status === 503 ? { ...API_SECURITY_HEADERS, "retry-after": "5" } : undefined;
      return apiError(res, result.status, (result.status === 200 ? visibleTo(actor, result.body as never) : result.body) as never, retry);
    }
    if (pathname.startsWith(EXISTS_PREFIX) && safe) {
      const probe = matchApiRoute("HEAD", `/api/${rawUrl.slice(EXISTS_PREFIX.length)}`);
      if (probe.kind === "forward") {
        const decision = checkRequest(actor, probe);
        if (!decision.allowed) return apiError(res, 403, errorBody("forbidden", decision.message));
      }
      const answer = await objectExists(deps.upstream, rawUrl);
      return sendJson(res, answer.status, answer.body, API_SECURITY_HEADERS);
    }
    if (pathname === ZIP_PATH && method === "POST") {
      const read = await readJson(req);
      if (read.kind !== "ok") return read.kind === "aborted" ? undefined : sendJson(res, read.status, read.body, API_SECURITY_HEADERS);
      const problem = notJsonBody(req.headers, read.body);
      const parsed = parseJsonText(read.body.toString("utf8"));
      read.release();
      if (problem) return apiError(res, 400, errorBody("validation_error", problem));
      const body = parsed.ok ? parsed.value : undefined;
      const unzippable = await zipRefusal(body);
      if (unzippable) return apiError(res, unzippable.status, unzippable.body);
      const answer = zips.start(actor.sessionId ?? actor.email, body, (bucket) => {
        const d = decide(actor, "read", `bucket:${bucket}` as Resource);
        return d.allowed ? undefined : d.message;
      });
      return apiError(res, answer.status, answer.body as never);
    }
    if (pathname.startsWith(`${ZIP_PATH}/`) && safe) {
      const down = serviceUnavailable(service);
      if (down) return apiError(res, 503, down.body, { ...API_SECURITY_HEADERS, ...down.headers });
      const answer = await zips.stream(req, res, pathname.slice(ZIP_PATH.length + 1), actor.sessionId ?? actor.email, API_SECURITY_HEADERS as Record<string, string>);
      if (answer) return apiError(res, answer.status, answer.body as never);
      return;
    }
    if (route.kind === "reject") {
      // A wrong method says which ones the path takes, as the service does (review 38a #7).
      const headers = route.allow ? { ...API_SECURITY_HEADERS, allow: route.allow } : API_SECURITY_HEADERS;
      return apiError(res, route.status ?? 404, route.status === 400 ? errorBody("validation_error", route.message) : errorBody("not_found", route.message), headers);
    }
    return forward(req, res, route, true, API_SECURITY_HEADERS, actor);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Two Host headers: Node keeps the first, another hop might keep the last; refuse both.
    const hostCount = req.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === "host").length;
    const host = hostCount === 1 ? checkHost(req.headers.host, own) : undefined;
    if (!host) {
      return sendJson(
        res,
        421,
        errorBody("forbidden", "This server does not answer to that Host name. Open it by the address it printed, or add the name to BASEBOARD_ALLOWED_HOSTS."),
        API_SECURITY_HEADERS,
      );
    }
    const rawUrl = req.url ?? "/";
    if (!rawUrl.startsWith("/")) return sendJson(res, 400, errorBody("validation_error", "Request target must be a path."));
    const q = rawUrl.indexOf("?");
    const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
    if (pathname === "/api" || pathname.startsWith("/api/")) return handleApi(req, res, host, rawUrl, pathname);
    if (deps.team) {
      if (await deps.team.handlePage(req, res, pathname, host)) return;
    } else if (deps.sessions && (await deps.sessions.handle(req, res, pathname, host))) return;
    if (deps.dev) {
      return new Promise<void>((resolve) => {
        res.once("close", resolve);
        deps.dev?.(req, res, () => {
          res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
          res.end("Not found\n");
        });
      });
    }
    // An API path in other letters (/API/…) is not a page: said in the API's error shape.
    if (/^\/api(\/|$)/i.test(pathname)) return apiError(res, 404, errorBody("not_found", `No such API path: ${pathname.slice(0, 200)}. API paths are in lower case, under /api/.`));
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
      res.end("Method not allowed\n");
      return;
    }
    return serveStatic(req, res, pathname);
  }

  return function onRequest(req: IncomingMessage, res: ServerResponse): void {
    handle(req, res).catch((err) => {
      deps.log(`internal error on ${req.method} ${(req.url ?? "").split("?")[0]}: ${(err as Error).message}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // Baseboard's own store (people, sessions, the activity log) refusing a write is a state
      // of the machine the person can fix, not a bug: say which.
      const why = whyUnwritable(err);
      if (why) {
        // A read is not told of writing (review 39a #8): unreachable is said as such.
        const state = why === "its database cannot be reached" ? "cannot be reached" : req.method === "GET" || req.method === "HEAD" ? `cannot be read: ${why}` : `cannot be written: ${why}`;
        return sendJson(res, 503, errorBody("unavailable", `Baseboard's own store (people, sessions, the activity log) ${state}. Check the storage behind DATA_DIR or BASEBOARD_DATABASE_URL, then try again.`), { "retry-after": "5" });
      }
      sendJson(res, 500, errorBody("internal_error", "Something went wrong inside the proxy."));
    });
  };
}
