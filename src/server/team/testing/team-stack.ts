/**
 * A real team stack for tests: the embedded local service (board "svc"), a counting relay in
 * front of it (so a test can tell whether a request reached the upstream), and a proxy with
 * people in its own DATA_DIR talking to the relay as its hosted upstream. Nothing is faked:
 * the relay pipes bytes both ways.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { startRawUpstream, startTestBaseboard, type RawUpstream, type TestBaseboard } from "../../proxy/testing/test-baseboard";
import { createPeopleAdmin } from "../people/people-admin";
import { openSqliteTeamStore } from "../store/sqlite-store";
import type { TeamStore } from "../store/team-store";

export interface TeamStack {
  svc: TestBaseboard;
  relay: RawUpstream;
  proxy: TestBaseboard;
  /** The service's full API key (to act as another client of the service, outside Baseboard). */
  apiKey: string;
  /** The proxy's DATA_DIR (people, sessions, the audit trail). */
  dataDir: string;
  /** The proxy's team store, opened by the test as `npm run people` would. */
  store: TeamStore;
  admin: ReturnType<typeof createPeopleAdmin>;
  /**
   * Set by a test: the relay waits for it before passing a request on (to hold one upstream);
   * what it gives instead, if anything: an answer of its own, or "reset" (the connection cut).
   */
  hold?: Hold;
  stop(): Promise<void>;
}

export type Hold = (req: http.IncomingMessage) => Promise<void | { status: number; body: string } | "reset"> | undefined;

/**
 * A hold under which a change is made and its answer never comes back: each request whose path
 * ends with one of `ends` is sent to the service (`serviceUrl`), answered there, and then the
 * proxy's connection is cut, as when the proxy's link to the service drops mid-change.
 */
export function madeThenCut(serviceUrl: string, ...ends: string[]): Hold {
  return (req) => {
    if (!ends.some((e) => req.url?.endsWith(e))) return undefined;
    return (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k === "x-api-key" || k === "content-type" || k.startsWith("x-baseboard"))) as Record<string, string>;
      await (await fetch(`${serviceUrl}${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) })).text();
      return "reset" as const;
    })();
  };
}

export function relayTo(target: string, hold?: Hold): http.RequestListener {
  const t = new URL(target);
  return async (req, res) => {
    const instead = await hold?.(req);
    if (instead === "reset") return void req.socket.destroy();
    if (instead) {
      req.resume();
      res.writeHead(instead.status, { "content-type": "application/json" });
      return void res.end(instead.body);
    }
    const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  };
}

export async function startTeamStack(env: Record<string, string> = {}, opts: { prepareDataDir?: (dir: string) => void } = {}): Promise<TeamStack> {
  const svc = await startTestBaseboard();
  const ref: { stack?: TeamStack } = {};
  const relay = await startRawUpstream(relayTo(svc.serviceUrl as string, (req) => ref.stack?.hold?.(req)));
  const apiKey = fs.readFileSync(path.join(svc.dataDir as string, "api-key"), "utf8").trim().split(/\s+/)[0];
  const dataDir = fs.mkdtempSync(path.join(svc.dir, "team-"));
  opts.prepareDataDir?.(dataDir);
  const store = openSqliteTeamStore(dataDir);
  const proxy = await startTestBaseboard({ BASE_URL: relay.url, API_KEY: apiKey, DATA_DIR: dataDir, ...env });
  const stack: TeamStack = {
    svc,
    relay,
    proxy,
    apiKey,
    dataDir,
    store,
    admin: createPeopleAdmin(store),
    async stop() {
      await proxy.stop();
      await store.close();
      await relay.close();
      await svc.stop();
    },
  };
  ref.stack = stack;
  return stack;
}

/** Signs in through the real form; returns the Cookie header value. */
export async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }).toString(),
  });
  const set = res.headers.get("set-cookie") ?? "";
  const m = /bb_sid=([^;]+)/.exec(set);
  if (res.status !== 303 || !m) throw new Error(`sign-in as ${email} failed: ${res.status} ${await res.text()}`);
  return `bb_sid=${m[1]}`;
}

/** Waits until the proxy has seen the store's latest change (it polls the revision about once a second). */
export async function waitForMode(base: string, mode: "people" | "single-user" | "password", timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${base}/api/me`);
    const now = res.status === 401 ? "people-or-password" : ((await res.json()) as { mode: string }).mode;
    if (now === mode || (now === "people-or-password" && mode !== "single-user")) return;
    if (Date.now() > until) throw new Error(`the proxy is still in ${now} mode`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
