/**
 * Hosted mode, for real: a local service started with SERVICE_PROFILE=interface (so it answers
 * exactly as the hosted interface: no fields, meta, list, delete, import; only `equal`) and a
 * second launcher with BASE_URL pointing at it and a config file (e2e/hosted.config.json). No
 * faked /api/config. The spec controls the upstream process, so it can stop and restart it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { test } from "@playwright/test";
import { E2E_PORT, E2E_SERVICE_PORT } from "../../playwright.config";

export const HOSTED_PORT = Number(process.env.E2E_HOSTED_PORT ?? E2E_PORT + 10);
export const HOSTED_SERVICE_PORT = Number(process.env.E2E_HOSTED_SERVICE_PORT ?? E2E_SERVICE_PORT + 10);
export const hostedUrl = `http://127.0.0.1:${HOSTED_PORT}`;
export const upstreamUrl = `http://127.0.0.1:${HOSTED_SERVICE_PORT}`;
const KEY = "e2e-hosted-key-7f3a9c1d";

/** A bundle the web server's command built (playwright.config.ts), as `npm start` runs it. */
function start(script: string, env: Record<string, string>): ChildProcess {
  // Its own process group, so that stopping it stops its children too.
  const child = spawn(process.execPath, ["--max-semi-space-size=1", script], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"], detached: true });
  child.stderr?.on("data", (d: Buffer) => {
    if (process.env.E2E_VERBOSE) process.stderr.write(d);
  });
  return child;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid, "SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export class HostedStack {
  private service?: ChildProcess;
  private launcher?: ChildProcess;
  private dir?: string;
  /** Made when first asked for: Playwright loads a spec file in several processes, and only one starts the stack. */
  get dataDir(): string {
    return (this.dir ??= fs.mkdtempSync(path.join(os.tmpdir(), "bb-e2e-hosted-")));
  }

  async start(): Promise<void> {
    await this.startService();
    await this.startProxy();
  }

  /** Baseboard itself (the launcher, in hosted mode: the proxy alone). */
  async startProxy(): Promise<void> {
    this.launcher = start("dist-server/launcher/main.js", {
      PORT: String(HOSTED_PORT),
      BASE_URL: upstreamUrl,
      API_KEY: KEY,
      BASEBOARD_CONFIG: path.resolve("e2e/hosted.config.json"),
    });
    await waitFor(`${hostedUrl}/api/health`);
  }

  /** The upstream alone (same data directory: a restart keeps its data). */
  async startService(): Promise<void> {
    this.service = start("dist-server/service/main.js", {
      SERVICE_PROFILE: "interface",
      SERVICE_PORT: String(HOSTED_SERVICE_PORT),
      DATA_DIR: this.dataDir,
      SERVICE_API_KEYS: KEY,
    });
    await waitFor(`${upstreamUrl}/v0/storage/public/public-assets/none`);
  }

  async stopProxy(): Promise<void> {
    await stop(this.launcher);
    this.launcher = undefined;
  }

  async stopService(): Promise<void> {
    await stop(this.service);
    this.service = undefined;
  }

  /**
   * In the service's place, a stand-in that answers every call 503 in the error shape with
   * Retry-After, as a hosted service does while it restarts behind its load balancer. Returns
   * the function that takes it away again.
   */
  async standInRestarting(): Promise<() => Promise<void>> {
    const server = http.createServer((_req, res) => {
      res.writeHead(503, { "content-type": "application/json", "retry-after": "2" });
      res.end(JSON.stringify({ error: "unavailable", subCode: 0, message: "The service is restarting; try again in a moment." }));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(HOSTED_SERVICE_PORT, "127.0.0.1", () => resolve());
    });
    return () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
  }

  async stop(): Promise<void> {
    await stop(this.launcher);
    await stop(this.service);
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  /** A call to the upstream with the key, to set up and check what the UI did. */
  call(pathname: string, json?: unknown, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("x-api-key", KEY);
    if (json !== undefined) headers.set("content-type", "application/json");
    return fetch(upstreamUrl + pathname, {
      ...init,
      method: init.method ?? (json !== undefined ? "POST" : "GET"),
      headers,
      body: json !== undefined ? JSON.stringify(json) : init.body,
    });
  }
}

/**
 * For a spec file of hosted flows: one stack for the whole file (started before its first test,
 * stopped after its last), the tests run in order against the hosted launcher.
 */
export function useHostedStack(): HostedStack {
  const stack = new HostedStack();
  test.describe.configure({ mode: "serial" });
  test.use({ baseURL: hostedUrl });
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    await stack.start();
  });
  test.afterAll(async () => {
    await stack.stop();
  });
  return stack;
}
