/**
 * What `npm start` runs, as a function the tests can call too: the proxy on HOST:PORT and,
 * unless BASE_URL is set, the embedded local service on loopback at SERVICE_PORT, whose
 * generated key is handed to the proxy in memory. The proxy binds first, so that the service's
 * signed URLs can name the proxy's own origin (they then go through it, under /api).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Service } from "../service/app";
import { loadConfigFile } from "../proxy/app-config";
import { parseProxyConfig, type ProxyConfig } from "../proxy/config";
import { createUpstream, sendJson, type Upstream } from "../proxy/forward";
import { createProxyServer } from "../proxy/http-server";
import { createProxyHandler, type Middleware } from "../proxy/server";
import { createSessionGate } from "../proxy/session";
import { errorBody } from "../../shared/errors";

export interface Baseboard {
  /** The URL to open. */
  url: string;
  config: ProxyConfig;
  /** The embedded service's own URL (undefined with BASE_URL). */
  serviceUrl?: string;
  dataDir?: string;
  /** Stops accepting, lets requests in flight finish (up to graceMs), then stops the service. */
  close(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  dev?: boolean;
  log?: (line: string) => void;
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

export async function startBaseboard(env: NodeJS.ProcessEnv, opts: StartOptions = {}): Promise<Baseboard> {
  const log = opts.log ?? ((line: string) => console.error(`[baseboard] ${line}`));
  const config = parseProxyConfig(env);
  if (config.baseUrl && !config.apiKey) {
    throw new Error("BASE_URL is set but API_KEY is not: set API_KEY to the key of that service's Data API.");
  }
  const file = loadConfigFile(config.configFile);

  const server = createProxyServer(config.limits);
  let handler: http.RequestListener = (_req, res) =>
    sendJson(res, 503, errorBody("bad_gateway", "Baseboard is still starting; try again in a moment."), { "retry-after": "1" });
  server.on("request", (req, res) => handler(req, res));
  const port = await listen(server, config.port, config.host, "The proxy (PORT)");
  const origin = config.publicOrigin ?? `http://${displayHost(config.host)}:${port}`;

  let service: Service | undefined;
  let serviceUrl: string | undefined;
  let dataDir: string | undefined;
  let upstream: Upstream;
  let vite: { close(): Promise<void>; middlewares: Middleware } | undefined;
  try {
    let baseUrl = config.baseUrl;
    let apiKey = config.apiKey;
    if (!baseUrl) {
      // Loaded only when used: SQLite and sharp have no business in a proxy to a hosted service.
      const { createService } = await import("../service/app");
      const { parseServiceConfig, resolveApiKeys } = await import("../service/config");
      const serviceConfig = { ...parseServiceConfig([], env), publicBaseUrl: `${origin}/api` };
      // API_KEY with the embedded service: the service accepts that key (besides SERVICE_API_KEYS).
      if (apiKey && !serviceConfig.apiKeys.some((k) => k.key === apiKey)) serviceConfig.apiKeys.push({ key: apiKey });
      service = await createService(serviceConfig);
      serviceUrl = await service.listen();
      dataDir = serviceConfig.dataDir;
      if (!apiKey) {
        const keys = resolveApiKeys(serviceConfig);
        apiKey = (keys.find((k) => !k.scope) ?? keys[0]).key;
      }
      baseUrl = serviceUrl;
    }
    const kind = config.baseUrl ? "hosted" : "local";
    const label = config.baseUrl ? new URL(config.baseUrl).host : `Local service (${path.relative(process.cwd(), dataDir as string) || "."})`;
    upstream = createUpstream({ baseUrl, apiKey: apiKey as string, timeoutMs: config.timeoutMs, label: kind === "local" ? "The local service" : `The service at ${label}`,
      connections: config.limits.connections, bodyIdleMs: config.limits.bodyIdleMs, sendIdleMs: config.limits.sendIdleMs });
    if (opts.dev) {
      const { createServer } = await import("vite");
      vite = await createServer({ server: { middlewareMode: true, ws: { server } }, appType: "spa" });
    }
    handler = createProxyHandler({
      config,
      port,
      upstream,
      upstreamInfo: { kind, label, file, fileName: config.configFile },
      sessions: config.password ? createSessionGate({ password: config.password, publicOrigin: config.publicOrigin }) : undefined,
      dev: vite?.middlewares,
      log,
    });
  } catch (err) {
    await closeServer(server, 0);
    await vite?.close();
    await service?.close();
    throw err;
  }

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    config,
    serviceUrl,
    dataDir,
    close(graceMs = 10_000) {
      closing ??= (async () => {
        await closeServer(server, graceMs);
        await vite?.close();
        await upstream.close();
        await service?.close();
      })();
      return closing;
    },
  };
}
