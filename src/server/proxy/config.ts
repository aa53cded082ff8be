/**
 * Configuration of the proxy (decisions §1), read once at start-up and passed in. Parsing is
 * pure and refuses unsafe combinations with a message that says what to fix: binding anything
 * but loopback without BASEBOARD_PASSWORD, or a plain-http upstream that is not loopback.
 */
import path from "node:path";
import ipaddr from "ipaddr.js";

export interface ProxyConfig {
  /** Address the proxy binds. */
  host: string;
  port: number;
  /** Upstream base URL without trailing slash; unset = the embedded local service. */
  baseUrl?: string;
  /** Key for the upstream (API_KEY); for the embedded service the launcher reads it. */
  apiKey?: string;
  /** Password of the login page; required for a non-loopback host. */
  password?: string;
  /** Public origin when behind a TLS terminator or reached by a name (BASEBOARD_ORIGIN). */
  publicOrigin?: string;
  /** Extra Host names this proxy answers to (BASEBOARD_ALLOWED_HOSTS, comma-separated). */
  allowedHosts: string[];
  /** How long to wait for the upstream's response headers, and between body chunks. */
  timeoutMs: number;
  /** Tables and buckets for an upstream without the meta extension. */
  configFile: string;
  /** The built app. */
  distDir: string;
  /** Bounds on what a client may take from the proxy (README "Limits and timeouts"). */
  limits: ProxyLimits;
  /** "info" also logs client aborts (one line each); default "warn". */
  logLevel: "warn" | "info";
}

export interface ProxyLimits {
  /** The request line and headers must arrive within this (408 after). */
  headersTimeoutMs: number;
  /** A body that sends nothing for this long is cut (408). */
  bodyIdleMs: number;
  /** A JSON body must arrive whole within this (408 after). */
  jsonBodyMs: number;
  /** A browser that takes none of its answer for this long is cut (its upstream connection freed). */
  sendIdleMs: number;
  /** Bytes of record-call bodies the proxy holds while they arrive, all clients together (503 past it). */
  jsonBufferBytes: number;
  /** Upstream connections per lane: JSON calls, file reads, streamed uploads. */
  connections: { json: number; files: number; uploads: number };
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, unit = "milliseconds"): number {
  const raw = env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of ${unit}, not "${raw}".`);
  return n;
}

export function parseProxyLimits(env: NodeJS.ProcessEnv): ProxyLimits {
  const count = (name: string, fallback: number) => Math.ceil(positive(env, name, fallback, "connections"));
  return {
    headersTimeoutMs: positive(env, "BASEBOARD_HEADERS_TIMEOUT_MS", 20_000),
    bodyIdleMs: positive(env, "BASEBOARD_BODY_IDLE_TIMEOUT_MS", 30_000),
    jsonBodyMs: positive(env, "BASEBOARD_JSON_BODY_TIMEOUT_MS", 60_000),
    sendIdleMs: positive(env, "BASEBOARD_SEND_IDLE_TIMEOUT_MS", 60_000),
    jsonBufferBytes: Math.ceil(positive(env, "BASEBOARD_JSON_BUFFER_BYTES", 64 * 1024 * 1024, "bytes")),
    connections: {
      json: count("UPSTREAM_CONNECTIONS", 64),
      files: count("UPSTREAM_FILE_CONNECTIONS", 32),
      uploads: count("UPSTREAM_UPLOAD_CONNECTIONS", 16),
    },
  };
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (!ipaddr.isValid(h)) return false;
  return ipaddr.process(h).range() === "loopback";
}

function parsePort(raw: string | undefined, fallback: number, name: string): number {
  const port = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be a port number between 0 and 65535, not "${raw}".`);
  }
  return port;
}

/** Checks the upstream URL: http(s) only, https unless loopback; returns it without a trailing slash. */
export function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`BASE_URL "${raw}" is not a URL: use the form https://your-team.example.com.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`BASE_URL must start with https:// (got ${url.protocol}).`);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new Error(
      `BASE_URL must use https:// for a host that is not loopback (got ${url.origin}): the API key would cross the network in clear text.`,
    );
  }
  if (url.username || url.password) throw new Error("BASE_URL must not carry a user name or password.");
  if (url.search || url.hash) throw new Error("BASE_URL must not carry a query string or fragment.");
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** `signIn`: people exist in the team store, or single sign-on is configured: either makes everyone sign in. */
export function parseProxyConfig(env: NodeJS.ProcessEnv, cwd = process.cwd(), opts: { signIn?: boolean } = {}): ProxyConfig {
  const host = env.HOST?.trim() || "127.0.0.1";
  const password = env.BASEBOARD_PASSWORD || undefined;
  if (!isLoopbackHost(host) && !password && !opts.signIn) {
    throw new Error(
      `HOST=${host} would expose the proxy (and with it the API key's powers) beyond this machine. Add people (npm run people -- add you@example.com --role admin), configure single sign-on, or set BASEBOARD_PASSWORD to require a login; or leave HOST unset for 127.0.0.1.`,
    );
  }
  let publicOrigin: string | undefined;
  if (env.BASEBOARD_ORIGIN) {
    try {
      publicOrigin = new URL(env.BASEBOARD_ORIGIN).origin;
    } catch {
      throw new Error(`BASEBOARD_ORIGIN "${env.BASEBOARD_ORIGIN}" is not a URL: use the form https://admin.example.com.`);
    }
  }
  const timeoutMs = Number(env.UPSTREAM_TIMEOUT_MS ?? 30_000);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error("UPSTREAM_TIMEOUT_MS must be a positive number of milliseconds.");
  return {
    host,
    port: parsePort(env.PORT, 5173, "PORT"),
    baseUrl: env.BASE_URL ? parseBaseUrl(env.BASE_URL) : undefined,
    apiKey: env.API_KEY || undefined,
    password,
    publicOrigin,
    allowedHosts: (env.BASEBOARD_ALLOWED_HOSTS ?? "")
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    timeoutMs,
    configFile: path.resolve(cwd, env.BASEBOARD_CONFIG ?? "baseboard.config.json"),
    distDir: path.resolve(cwd, env.BASEBOARD_DIST ?? "dist"),
    limits: parseProxyLimits(env),
    logLevel: env.BASEBOARD_LOG_LEVEL === "info" || env.BASEBOARD_LOG_LEVEL === "debug" ? "info" : "warn",
  };
}
