/**
 * Helpers for the proxy's HTTP tests: requests over node:http (so Host, Origin and odd paths are
 * sent exactly as written), a tiny raw upstream whose behaviour each test scripts, and a
 * Baseboard started in-process on ephemeral ports with a fresh data directory.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { type Baseboard, startBaseboard } from "../../launcher/start";
import { childEnv } from "../../launcher/service-command";
import { serviceEntry } from "../../service/testing/service-entry";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json(): unknown;
}

export interface RawInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer | Readable;
  /** Send no Host header at all unless headers names one. */
  noHost?: boolean;
  /** Client address (another loopback address such as 127.0.0.2 is a different client). */
  localAddress?: string;
}

export function raw(base: string, pathname: string, init: RawInit = {}): Promise<RawResponse> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname,
      port: u.port,
      method: init.method ?? "GET",
      path: pathname,
      headers: init.headers,
      setHost: !init.noHost && !Object.keys(init.headers ?? {}).some((h) => h.toLowerCase() === "host"),
      agent: false,
      localAddress: init.localAddress,
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const text = body.toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json: () => JSON.parse(text) });
      });
    });
    const body = init.body;
    if (body && typeof body === "object" && "pipe" in body) body.pipe(req);
    else req.end(body);
  });
}

/** Headers of a same-origin request from the app's page. */
export function fromApp(base: string, extra: Record<string, string> = {}): Record<string, string> {
  return { origin: base, "x-baseboard-client": "1", "sec-fetch-site": "same-origin", ...extra };
}

export interface RawUpstream {
  url: string;
  server: http.Server;
  /** Every request the upstream saw: method, url, headers. */
  seen: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startRawUpstream(handler: http.RequestListener): Promise<RawUpstream> {
  const seen: RawUpstream["seen"] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface TestBaseboard extends Baseboard {
  logs: string[];
  dir: string;
  stop(): Promise<void>;
}

/** A temp dist/ with an index page and one hashed asset. */
export function makeDist(dir: string): string {
  const dist = path.join(dir, "dist");
  fs.mkdirSync(path.join(dist, "assets"), { recursive: true });
  fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Baseboard test</title><div id=root></div>");
  fs.writeFileSync(path.join(dist, "assets", "app-abc123.js"), "console.log('app');");
  return dist;
}

export async function startTestBaseboard(env: Record<string, string> = {}): Promise<TestBaseboard> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-proxy-"));
  const logs: string[] = [];
  const boardEnv = {
    PORT: "0",
    SERVICE_PORT: "0",
    DATA_DIR: path.join(dir, "data"),
    SERVICE_LOG_LEVEL: "silent",
    BASEBOARD_DIST: makeDist(dir),
    BASEBOARD_CONFIG: path.join(dir, "baseboard.config.json"),
    // 1 MB of room kept for the trail's outcomes, not 16: a test run starts many of these.
    BASEBOARD_AUDIT_RESERVE_MB: "1",
    ...env,
  };
  const board = await startBaseboard(boardEnv, { log: (line) => logs.push(line), serviceCommand: { ...serviceEntry(), env: childEnv(boardEnv) } }).catch((e: unknown) => {
    // A start that fails (a refused configuration) leaves no directory behind either.
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  });
  return {
    ...board,
    logs,
    dir,
    async stop() {
      await board.close(2000);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
