/**
 * Benchmark "proxy" (`npm run bench -- proxy`): what the key-holding proxy costs. Baseboard runs
 * as `npm start` runs it (the esbuild bundle of the launcher on plain node with a small young
 * generation; the embedded service in its supervised child process);
 * the same query and the same 100 MB download are made straight to the service and through the
 * proxy, alternately, from this process. Then, against a bare upstream that discards what it
 * gets, a 1 GiB upload direct and through the proxy, with the proxy's peak RSS.
 * Targets: under 1 ms added to the query's p50; download throughput ≥ 0.8× direct.
 * Not a test: it prints figures, ratios and whether the targets were met.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { Readable } from "node:stream";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Pool } from "undici";

import { createPeopleAdmin } from "../src/server/team/people/people-admin";
import { openSqliteTeamStore } from "../src/server/team/store/sqlite-store";

const KEY = "bench-proxy-key-3c9e";
const QUERIES = Number(process.env.BENCH_PROXY_QUERIES ?? 2000);
const DOWNLOAD_MB = 100;
const DOWNLOADS = Number(process.env.BENCH_PROXY_DOWNLOADS ?? 5);
const UPLOAD_BYTES = 1024 ** 3;
const MB = 1024 * 1024;

interface Child {
  proc: ChildProcess;
  url: string;
  serviceUrl?: string;
}

/** Builds the server bundle exactly as `npm start` does, once per bench run. */
let bundled = false;
function bundleLauncher(): void {
  if (bundled) return;
  const r = spawnSync("npm", ["run", "build:server", "--silent"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm run build:server failed");
  bundled = true;
}

function launch(env: Record<string, string>): Promise<Child> {
  bundleLauncher();
  const proc = spawn(process.execPath, ["--max-semi-space-size=1", "dist-server/launcher/main.js"], {
    env: { ...process.env, PORT: "0", SERVICE_PORT: "0", SERVICE_LOG_LEVEL: "silent", API_KEY: KEY, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    proc.stdout?.on("data", (d) => {
      out += d;
      const url = /open (http:\/\/\S+)/.exec(out)?.[1];
      const serviceUrl = /local service at (http:\/\/\S+)/.exec(out)?.[1];
      if (url && (serviceUrl || env.BASE_URL)) resolve({ proc, url, serviceUrl });
    });
    proc.on("exit", (code) => reject(new Error(`Baseboard exited with ${code}: ${out}`)));
  });
}

function stop(child: Child): Promise<void> {
  return new Promise((r) => {
    child.proc.once("exit", () => r());
    child.proc.kill("SIGTERM");
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (n: number, digits = 2) => n.toFixed(digits);
const verdict = (ok: boolean) => (ok ? "met" : "NOT met");

async function timeRequest(pool: Pool, opts: Parameters<Pool["request"]>[0]): Promise<number> {
  const t0 = process.hrtime.bigint();
  const res = await pool.request(opts);
  for await (const _ of res.body) {
    // drain
  }
  if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode} for ${opts.path}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function benchQuery(board: Child) {
  const body = JSON.stringify({
    filter: { and: [{ key: "department", operator: "equal", value: "Engineering" }, { key: "age", operator: "greaterThan", value: 30 }] },
    sort: [{ key: "hire_date", direction: "descending" }],
    limit: 50,
  });
  const direct = new Pool(board.serviceUrl as string, { connections: 1 });
  const proxied = new Pool(board.url, { connections: 1 });
  const path = "/v0/record/demo/employees/query";
  const directOpts = { path, method: "POST" as const, body, headers: { "content-type": "application/json", "x-api-key": KEY } };
  const proxyOpts = { path: `/api${path}`, method: "POST" as const, body, headers: { "content-type": "application/json", origin: board.url, "x-baseboard-client": "1" } };
  for (let i = 0; i < 200; i++) {
    await timeRequest(direct, directOpts);
    await timeRequest(proxied, proxyOpts);
  }
  const d: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    d.push(await timeRequest(direct, directOpts));
    p.push(await timeRequest(proxied, proxyOpts));
  }
  d.sort((a, b) => a - b);
  p.sort((a, b) => a - b);
  const added = percentile(p, 50) - percentile(d, 50);
  console.log(`query (filter + sort + limit 50), ${QUERIES} each, concurrency 1:`);
  console.log(`  direct  p50 ${fmt(percentile(d, 50))} ms  p99 ${fmt(percentile(d, 99))} ms`);
  console.log(`  proxied p50 ${fmt(percentile(p, 50))} ms  p99 ${fmt(percentile(p, 99))} ms`);
  console.log(`  added to p50: ${fmt(added, 3)} ms (ratio ${fmt(percentile(p, 50) / percentile(d, 50))}×) — target < 1 ms: ${verdict(added < 1)}`);
  await direct.close();
  await proxied.close();
}

async function benchDownload(board: Child) {
  const up = new Pool(board.serviceUrl as string);
  const boundary = "----bbbench";
  const chunk = Buffer.alloc(MB, 42);
  async function* form() {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\nbench/download.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="d.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    for (let i = 0; i < DOWNLOAD_MB; i++) yield chunk;
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const res = await up.request({
    path: "/v0/storage/object/public-assets",
    method: "POST",
    body: Readable.from(form()),
    headers: { "x-api-key": KEY, "content-type": `multipart/form-data; boundary=${boundary}` },
  });
  const { key } = (await res.body.json()) as { key: string };
  await up.close();
  const direct = new Pool(board.serviceUrl as string, { connections: 1 });
  const proxied = new Pool(board.url, { connections: 1 });
  const file = `/v0/storage/public/public-assets/${key}`;
  const d: number[] = [];
  const p: number[] = [];
  await timeRequest(direct, { path: file, method: "GET" });
  await timeRequest(proxied, { path: `/api${file}`, method: "GET" });
  for (let i = 0; i < DOWNLOADS; i++) {
    d.push(DOWNLOAD_MB / ((await timeRequest(direct, { path: file, method: "GET" })) / 1000));
    p.push(DOWNLOAD_MB / ((await timeRequest(proxied, { path: `/api${file}`, method: "GET" })) / 1000));
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = med(p) / med(d);
  console.log(`download of ${DOWNLOAD_MB} MB, ${DOWNLOADS} each (median):`);
  console.log(`  direct ${fmt(med(d), 0)} MB/s, proxied ${fmt(med(p), 0)} MB/s: ${fmt(ratio)}× — target ≥ 0.8×: ${verdict(ratio >= 0.8)}`);
  await direct.close();
  await proxied.close();
}

async function benchUpload() {
  const sink = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"key":"v1/sink.bin"}');
    });
  });
  await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const board = await launch({ BASE_URL: sinkUrl });
  const pid = board.proc.pid as number;
  const status = () => fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status())?.[1]) / 1024;
  const chunk = Buffer.alloc(MB, 7);
  const upload = async (base: string, pathname: string, headers: Record<string, string>, bytes = UPLOAD_BYTES) => {
    const pool = new Pool(base, { connections: 1 });
    async function* body() {
      for (let sent = 0; sent < bytes; sent += MB) yield chunk;
    }
    const t0 = performance.now();
    const res = await pool.request({ path: pathname, method: "POST", body: Readable.from(body()), headers: { ...headers, "content-length": String(bytes) } });
    await res.body.text();
    const seconds = (performance.now() - t0) / 1000;
    await pool.close();
    return bytes / MB / seconds;
  };
  // Warm-up: undici's parser and lazily compiled code, so the peak below is the transfer's.
  for (let i = 0; i < 5; i++) await upload(board.url, "/api/v0/storage/object/b", { origin: board.url, "x-baseboard-client": "1" }, MB);
  const before = mb("VmRSS");
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // peak then includes start-up
  }
  const direct = await upload(sinkUrl, "/v0/storage/object/b", {});
  const proxied = await upload(board.url, "/api/v0/storage/object/b", { origin: board.url, "x-baseboard-client": "1" });
  const peak = mb("VmHWM");
  console.log(`upload of 1 GiB to a discarding upstream:`);
  // The sink runs in this process, so "direct" never leaves it: a ceiling more than a baseline.
  console.log(`  direct ${fmt(direct, 0)} MB/s, proxied ${fmt(proxied, 0)} MB/s: ${fmt(proxied / direct)}×`);
  console.log(`  proxy process RSS (as npm start runs it): ${fmt(before, 0)} MB before, ${fmt(peak, 0)} MB peak (+${fmt(peak - before, 0)}) — target < 100 MB: ${verdict(peak < 100)}`);
  await stop(board);
  await new Promise((r) => sink.close(r));
}

/**
 * What people cost per request (issue 18): the same proxied query on a single-user proxy and on
 * one where a person with grants is signed in (session lookup, permission table), interleaved.
 */
async function benchPeople(single: Child, dir: string) {
  const dataDir = path.join(dir, "people");
  const store = openSqliteTeamStore(dataDir);
  const admin = createPeopleAdmin(store);
  const added = await admin.add({ email: "bench@example.com", role: "editor", password: "a long measuring passphrase" });
  if (!added.ok) throw new Error(added.message);
  await admin.grant("bench@example.com", "table:demo/departments", "viewer");
  await admin.grant("bench@example.com", "bucket:vault", "none");
  await store.close();
  const team = await launch({ DATA_DIR: dataDir });
  try {
    const login = await fetch(`${team.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: team.url, "content-type": "application/x-www-form-urlencoded" },
      body: "email=bench%40example.com&password=a+long+measuring+passphrase",
    });
    const cookie = /bb_sid=[^;]+/.exec(login.headers.get("set-cookie") ?? "")?.[0];
    if (!cookie) throw new Error(`sign-in failed: ${login.status}`);
    const body = JSON.stringify({ filter: { and: [{ key: "employee_id", operator: "equal", value: "E00042" }] }, limit: 1 });
    const path_ = "/api/v0/record/demo/employees/query";
    const mk = (b: Child, extra: Record<string, string>) => ({
      pool: new Pool(b.url, { connections: 1 }),
      opts: { path: path_, method: "POST" as const, body, headers: { "content-type": "application/json", origin: b.url, "x-baseboard-client": "1", ...extra } },
    });
    const a = mk(single, {});
    const t = mk(team, { cookie });
    for (let i = 0; i < 200; i++) {
      await timeRequest(a.pool, a.opts);
      await timeRequest(t.pool, t.opts);
    }
    const sa: number[] = [];
    const st: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      sa.push(await timeRequest(a.pool, a.opts));
      st.push(await timeRequest(t.pool, t.opts));
    }
    sa.sort((x, y) => x - y);
    st.sort((x, y) => x - y);
    const added = percentile(st, 50) - percentile(sa, 50);
    console.log(`session + permission checks, primary-key query, ${QUERIES} each, concurrency 1:`);
    console.log(`  single user  p50 ${fmt(percentile(sa, 50), 3)} ms  p99 ${fmt(percentile(sa, 99))} ms`);
    console.log(`  signed in    p50 ${fmt(percentile(st, 50), 3)} ms  p99 ${fmt(percentile(st, 99))} ms`);
    console.log(`  added to p50: ${fmt(added, 3)} ms (ratio ${fmt(percentile(st, 50) / percentile(sa, 50))}×) — target ≤ 0.2 ms: ${verdict(added <= 0.2)}`);
    await a.pool.close();
    await t.pool.close();
  } finally {
    await stop(team);
  }
}

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bench-proxy-"));
  const board = await launch({ DATA_DIR: path.join(dir, "data") });
  try {
    await benchPeople(board, dir);
    // BENCH_PROXY_ONLY=people: just the people figure (the rest moves a GiB).
    if (process.env.BENCH_PROXY_ONLY === "people") return;
    await benchQuery(board);
    await benchDownload(board);
  } finally {
    await stop(board);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (process.env.BENCH_PROXY_ONLY === "people") return;
  await benchUpload();
}
