/**
 * What `npm start` runs, as a function the tests can call too: the proxy on HOST:PORT and,
 * unless BASE_URL is set, the embedded local service on loopback at SERVICE_PORT in a child
 * process the launcher supervises (supervisor.ts: restarted when it dies, stopped with us). Its
 * key is read or generated here and handed to the child over IPC. The proxy binds first, so
 * that the service's signed URLs can name the proxy's own origin (they go through it, /api).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { buildAppConfig, createCatalogCache, loadConfigFile } from "../proxy/app-config";
import type { AppConfig } from "../../shared/meta";
import { parseProxyConfig, type ProxyConfig } from "../proxy/config";
import { createUpstream, sendJson, type Upstream, UpstreamFailure } from "../proxy/forward";
import { healthReport, HOSTED, RETRY_AFTER_S } from "../proxy/health";
import { createProxyServer } from "../proxy/http-server";
import { createProxyHandler, type Middleware } from "../proxy/server";
import { createSessionGate } from "../proxy/session";
import { openTeamStore } from "../team/store/open-store";
import { createTeamGate, type TeamGate } from "../team/team-gate";
import { parseOidcSettings } from "../team/sso/oidc-config";
import { createOidcSignIn } from "../team/sso/oidc-sign-in";
import { type Auditor, createAuditor } from "../team/audit/auditor";
import type { AuditLog } from "../team/audit/audit-log";
import { openAuditLog } from "../team/audit/open-audit-log";
import { loadSessionSecret } from "../proxy/session-secret";
import { parseServiceConfig, resolveApiKeys } from "../service/config";
import { errorBody } from "../../shared/errors";
import { serviceCommand } from "./service-command";
import { openLive } from "../team/events/open-live";
import type { LiveHub } from "../team/events/live-hub";
import { createSupervisor, type ChildCommand, type Supervisor, DEFAULT_LIVENESS } from "./supervisor";

/** What a 502 from the local service says to check (there is no BASE_URL in that mode). */
export const LOCAL_UNREACHABLE_HINT = "Baseboard restarts it by itself; try again in a moment (the terminal running npm start says why it stopped).";

export interface Baseboard {
  /** The URL to open. */
  url: string;
  config: ProxyConfig;
  /** The embedded service's own URL (undefined with BASE_URL). */
  serviceUrl?: string;
  /** The embedded service's supervisor (undefined with BASE_URL). */
  supervisor?: Supervisor;
  dataDir?: string;
  /** Who signs in now: people, the shared password, or nobody (the single user on loopback). */
  identityMode(): "people" | "password" | "single-user";
  /** What the app would say about its tables and buckets (say, the upstream describes none and no config file lists them). */
  notice(): Promise<string | undefined>;
  /** Stops accepting, lets requests in flight finish (up to graceMs), then stops the service. */
  close(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  dev?: boolean;
  log?: (line: string) => void;
  /** How to run the embedded service; by default service/main.ts under tsx. */
  serviceCommand?: ChildCommand;
  /** Benchmarks only (`npm run bench -- audit` measures the trail's cost against a proxy without it). */
  withoutAuditTrail?: boolean;
}

function listen(server: http.Server, port: number, host: string, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") reject(new Error(`${what}: port ${port} on ${host} is already in use. Stop what uses it or choose another port.`));
      else if (err.code === "EADDRNOTAVAIL") reject(new Error(`${what}: ${host} is not an address of this machine.`));
      else reject(err);
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** An address a browser can use to reach a proxy bound to `host`. */
function displayHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "[::]") {
    for (const list of Object.values(os.networkInterfaces())) {
      const a = list?.find((i) => i.family === "IPv4" && !i.internal);
      if (a) return a.address;
    }
    return "127.0.0.1";
  }
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function closeServer(server: http.Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    // Keep-alive connections that go idle after their last answer are closed as they do.
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const hard = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(hard);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** BASEBOARD_SERVICE_HUNG_SECONDS: how long a running service may go without answering before it is restarted (default 15). */
function hungSeconds(env: NodeJS.ProcessEnv): number {
  const raw = env.BASEBOARD_SERVICE_HUNG_SECONDS;
  const n = raw === undefined || raw === "" ? 15 : Number(raw);
  if (!Number.isFinite(n) || n < 3) throw new Error(`BASEBOARD_SERVICE_HUNG_SECONDS must be a number of seconds, at least 3 (got "${raw}").`);
  return n;
}

export async function startBaseboard(env: NodeJS.ProcessEnv, opts: StartOptions = {}): Promise<Baseboard> {
  const log = opts.log ?? ((line: string) => console.error(`[baseboard] ${line}`));
  // People and grants live in the team store (DATA_DIR/team.sqlite or BASEBOARD_DATABASE_URL).
  const oidcSettings = parseOidcSettings(env);
  const teamStore = await openTeamStore(env);
  let config: ProxyConfig;
  try {
    config = parseProxyConfig(env, process.cwd(), { signIn: (await teamStore.countPeople()) > 0 || !!env.BASEBOARD_OIDC_ISSUER });
  } catch (e) {
    await teamStore.close();
    throw e;
  }
  if (config.baseUrl && !config.apiKey) {
    throw new Error("BASE_URL is set but API_KEY is not: set API_KEY to the key of that service's Data API.");
  }
  const file = loadConfigFile(config.configFile);
  // Sessions exist only behind a password; their secret lives beside the data (or in the env).
  const sessionSecret = config.password ? await loadSessionSecret(env.BASEBOARD_SESSION_SECRET, path.resolve(env.DATA_DIR ?? ".data")) : undefined;

  const server = createProxyServer(config.limits);
  // Until the service is up: /api/health in its own shape ("starting"), everything else a 503.
  let handler: http.RequestListener = (req, res) => {
    const retry = { "retry-after": String(RETRY_AFTER_S) };
    if (req.url === "/api/health") return sendJson(res, 503, healthReport({ state: () => "starting", restarts: () => 0 }).body, retry);
    sendJson(res, 503, errorBody("unavailable", "Baseboard is still starting; try again in a moment."), retry);
  };
  server.on("request", (req, res) => handler(req, res));
  const port = await listen(server, config.port, config.host, "The proxy (PORT)");
  const origin = config.publicOrigin ?? `http://${displayHost(config.host)}:${port}`;

  let supervisor: Supervisor | undefined;
  let serviceUrl: string | undefined;
  let dataDir: string | undefined;
  let upstream: Upstream | undefined;
  let team: TeamGate | undefined;
  let auditLog: AuditLog | undefined;
  let auditor: Auditor | undefined;
  let live: LiveHub | undefined;
  let retentionTimer: NodeJS.Timeout | undefined;
  let vite: { close(): Promise<void>; middlewares: Middleware } | undefined;
  try {
    let baseUrl = config.baseUrl;
    let apiKey = config.apiKey;
    if (!baseUrl) {
      const serviceConfig = parseServiceConfig([], env);
      // API_KEY with the embedded service: the service accepts that key (besides SERVICE_API_KEYS).
      if (apiKey && !serviceConfig.apiKeys.some((k) => k.key === apiKey)) serviceConfig.apiKeys.push({ key: apiKey });
      // With no key configured, one is generated into DATA_DIR/api-key (mode 0600) on first start.
      const apiKeys = resolveApiKeys(serviceConfig);
      dataDir = serviceConfig.dataDir;
      supervisor = createSupervisor({
        command: opts.serviceCommand ?? serviceCommand(import.meta.url, env),
        start: { port: serviceConfig.port, dataDir, apiKeys, publicBaseUrl: `${origin}/api` },
        log,
        liveness: { ...DEFAULT_LIVENESS, killAfter: Math.max(DEFAULT_LIVENESS.unresponsiveAfter + 1, Math.round(hungSeconds(env) / (DEFAULT_LIVENESS.intervalMs / 1000))) },
      });
      serviceUrl = await supervisor.start();
      if (!apiKey) apiKey = (apiKeys.find((k) => !k.scope) ?? apiKeys[0]).key;
      baseUrl = serviceUrl;
    }
    const kind = config.baseUrl ? "hosted" : "local";
    const label = config.baseUrl ? new URL(config.baseUrl).host : `Local service (${path.resolve(dataDir as string)})`;
    const upstreamName = kind === "local" ? "The local service" : `The service at ${label}`;
    upstream = createUpstream({ baseUrl, apiKey: apiKey as string, timeoutMs: config.timeoutMs, label: upstreamName,
      // No BASE_URL to check in local mode: the launcher restarts its service by itself.
      unreachableHint: kind === "local" ? LOCAL_UNREACHABLE_HINT : undefined,
      supervised: kind === "local",
      connections: config.limits.connections, bodyIdleMs: config.limits.bodyIdleMs, sendIdleMs: config.limits.sendIdleMs });
    if (opts.dev) {
      const { createServer } = await import("vite");
      vite = await createServer({ server: { middlewareMode: true, ws: { server } }, appType: "spa" });
    }
    // The audit trail: DATA_DIR/audit.sqlite, or the same PostgreSQL as the people.
    auditLog = await openAuditLog(env);
    const upstreamFor = upstream;
    const sourceInfo = { kind, label, file, fileName: config.configFile } as const;
    const catalog = createCatalogCache(upstreamFor, sourceInfo);
    const trail = createAuditor({
      log: auditLog,
      upstream: upstreamFor,
      upstreamName,
      async tableOf(db, table) {
        const name = `${db}/${table}`;
        const { config: cfg, read } = await catalog.get(name);
        const found = cfg?.databases.find((d) => d.id === db)?.tables.find((t) => t.slug === table);
        if (read && read.status !== 200 && !found) {
          // The upstream did not say what the table is: without its primary key the change
          // would go through with nothing kept of what it overwrote (review 29a #1). Not sent.
          const said = (read.body as { message?: unknown } | undefined)?.message;
          throw new UpstreamFailure(read.status === 504 || read.status === 503 ? read.status : 502, `${typeof said === "string" ? said : `The upstream answered HTTP ${read.status}.`} The change was not sent: the activity log could not learn table ${name}'s primary key.`);
        }
        return { primaryKey: found?.primaryKey, beforeImages: cfg?.capabilities.beforeImages === true, deletedImages: cfg?.capabilities.deletedImages === true };
      },
      tablesChanged: () => catalog.invalidate(),
      onError: (e) => log(`audit trail: could not record an outcome: ${e.message}`),
    });
    auditor = trail;
    const retentionDays = Number(env.BASEBOARD_AUDIT_RETENTION_DAYS ?? "");
    if (env.BASEBOARD_AUDIT_RETENTION_DAYS && !(retentionDays > 0)) throw new Error("BASEBOARD_AUDIT_RETENTION_DAYS must be a positive number of days (unset keeps everything).");
    if (retentionDays > 0) {
      const prune = () => auditLog?.dropOlderThan(Date.now() - retentionDays * 86_400_000).catch((e) => log(`audit retention: ${(e as Error).message}`));
      await prune();
      retentionTimer = setInterval(prune, 3_600_000);
      retentionTimer.unref();
    }
    team = await createTeamGate({
      store: teamStore,
      passwordGate: config.password
        ? createSessionGate({
            password: config.password,
            secret: sessionSecret as string,
            publicOrigin: config.publicOrigin,
            bodyIdleMs: config.limits.bodyIdleMs,
          })
        : undefined,
      publicOrigin: config.publicOrigin,
      oidc: oidcSettings
        ? createOidcSignIn(oidcSettings, teamStore, log, ({ action, email, detail, address }) =>
            // The provider's changes to people, in the log like an admin's, by the provider.
            trail.peopleChange({ actor: { email: `single sign-on (${oidcSettings.issuer.host})`, kind: "sso" }, address, method: "GET", path: "/auth/oidc/callback", what: { action, email, detail } }),
          )
        : undefined,
      onSignInFailed: (email, address, endpoint) => trail.signInFailed(email, address, endpoint),
      // By the person, through their link (the token is not recorded).
      onPasswordSet: (email, address, link) => trail.peopleChange({ actor: { email, kind: "person" }, address, method: "POST", path: "/invite/…", what: { action: "set-password", email, detail: { link } } }),
      bodyIdleMs: config.limits.bodyIdleMs,
      log,
    });
    // Live events: in this process, or across proxies over the same PostgreSQL (LISTEN/NOTIFY).
    live = await openLive(env, { log, upstream: upstreamFor });
    const hub = live;
    team.people.onRevision(() => hub.recheck());
    handler = createProxyHandler({
      config,
      port,
      upstream,
      upstreamInfo: sourceInfo,
      catalog,
      service: supervisor ?? HOSTED,
      team,
      live,
      audit: opts.withoutAuditTrail ? undefined : trail,
      dev: vite?.middlewares,
      log,
    });
  } catch (err) {
    await live?.close().catch(() => {});
    await closeServer(server, 0);
    await auditLog?.close().catch(() => {});
    if (team) await team.close().catch(() => {});
    else await teamStore.close().catch(() => {});
    await vite?.close();
    await upstream?.close();
    await supervisor?.stop(2000);
    throw err;
  }

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    config,
    serviceUrl,
    supervisor,
    dataDir,
    identityMode: () => (team as TeamGate).mode(),
    async notice(): Promise<string | undefined> {
      if (!upstream) return undefined;
      const r = await buildAppConfig(upstream, { kind: config.baseUrl ? "hosted" : "local", label: config.baseUrl ?? "", file, fileName: config.configFile }).catch(() => undefined);
      return r?.status === 200 ? (r.body as AppConfig).notice : undefined;
    },
    close(graceMs = 10_000) {
      closing ??= (async () => {
        // Event streams never end by themselves: end them first, so closing waits only for real work.
        await live?.close().catch(() => {});
        await closeServer(server, graceMs);
        await vite?.close();
        await upstream?.close();
        await supervisor?.stop();
        clearInterval(retentionTimer);
        await team?.close();
        await auditor?.flush().catch(() => {});
        await auditLog?.close();
      })();
      return closing;
    },
  };
}
