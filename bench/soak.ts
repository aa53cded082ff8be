/**
 * Benchmark "soak" (`npm run bench -- soak`, `--seconds=N` to shorten the default 60 s):
 * Baseboard as `npm start` runs it (the esbuild bundle: launcher + proxy in one process, the
 * local service in its supervised child) on a fresh data directory, loaded through the proxy
 * by 50 writers and 200 readers at once, each a loop of requests one after the other:
 *   writers: single-Record updates by primary key (3 in 4) and bulk updates by filter (1 in 4),
 *            each writer on its own 20 employees, so the last acknowledged value of every
 *            Field it wrote is known;
 *   readers: nested filter queries with count, primary-key lookups, file GETs and resized GETs
 *            (w=256, a size of the web app's ladder), in turn.
 * Prints req/s, p50/p99 per kind, non-2xx answers by status (target: no 5xx), RSS of the proxy
 * and of the service before / peak / after, and checks every acknowledged write afterwards
 * (target: none lost). Loopback only; every loop ends at the deadline. Not a test.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent, request } from "undici";

const SECONDS = Number(process.argv.find((a) => a.startsWith("--seconds="))?.slice("--seconds=".length) ?? process.env.BENCH_SOAK_SECONDS ?? 60);
const WRITERS = 50;
const READERS = 200;
const ROWS_PER_WRITER = 20;

type Kind = "update-one" | "update-bulk" | "query-nested" | "lookup-pk" | "file-get" | "file-resized";
const KINDS: Kind[] = ["update-one", "update-bulk", "query-nested", "lookup-pk", "file-get", "file-resized"];

interface Launched {
  proc: ChildProcess;
  url: string;
  servicePid: number;
  output: () => string;
}

function launch(dataDir: string): Promise<Launched> {
  const built = spawnSync("npm", ["run", "build:server", "--silent"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build:server failed");
  // Always the embedded local service, whatever this shell's BASE_URL says.
  const { BASE_URL: _u, API_KEY: _k, BASEBOARD_PASSWORD: _p, ...env } = process.env;
  const proc = spawn(process.execPath, ["--max-semi-space-size=1", "dist-server/launcher/main.js"], {
    env: { ...env, PORT: "0", SERVICE_PORT: "0", DATA_DIR: dataDir, SERVICE_LOG_LEVEL: "silent", BASEBOARD_DIST: path.join(dataDir, "no-dist") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stderr?.on("data", (d) => (out += d));
  return new Promise((resolve, reject) => {
    proc.stdout?.on("data", (d) => {
      out += d;
      const url = /open (http:\/\/\S+)/.exec(out)?.[1];
      if (!url) return;
      const servicePid = Number(execFileSync("ps", ["-o", "pid=", "--ppid", String(proc.pid)], { encoding: "utf8" }).trim().split("\n")[0]);
      resolve({ proc, url, servicePid, output: () => out });
    });
    proc.on("exit", (code) => reject(new Error(`Baseboard exited with ${code}: ${out}`)));
  });
}

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const employee = (n: number) => `E${String(n).padStart(5, "0")}`;
const idsOf = (writer: number) => Array.from({ length: ROWS_PER_WRITER }, (_, i) => employee(writer * ROWS_PER_WRITER + i + 1));
const byIds = (ids: string[]) => ({ or: ids.map((value) => ({ key: "employee_id", operator: "equal", value })) });

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-soak-"));
  const board = await launch(path.join(dir, "data"));
  const agent = new Agent({ connections: WRITERS + READERS + 10, keepAliveTimeout: 30_000, headersTimeout: 120_000, bodyTimeout: 120_000 });
  const json = { "content-type": "application/json", origin: board.url, "x-baseboard-client": "1" };
  const latencies = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
  const statuses = new Map<string, number>();

  async function call(kind: Kind | undefined, path: string, body?: unknown): Promise<{ status: number; json?: unknown }> {
    const t0 = performance.now();
    try {
      const res = await request(board.url + path, {
        dispatcher: agent,
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? {} : json,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const parsed = res.headers["content-type"]?.toString().includes("json") ? await res.body.json() : (await res.body.arrayBuffer(), undefined);
      if (kind) {
        latencies.get(kind)?.push(performance.now() - t0);
        if (res.statusCode >= 300) statuses.set(String(res.statusCode), (statuses.get(String(res.statusCode)) ?? 0) + 1);
      }
      return { status: res.statusCode, json: parsed };
    } catch (err) {
      const what = `network error (${(err as { code?: string }).code ?? (err as Error).name})`;
      statuses.set(what, (statuses.get(what) ?? 0) + 1);
      return { status: 0 };
    }
  }
  const query = (kind: Kind | undefined, body: unknown) => call(kind, "/api/v0/record/demo/employees/query", body);
  const update = (kind: Kind, body: unknown) => call(kind, "/api/v0/record/demo/employees/update", { fixedValue: [], ...body as object });

  // Warm up (lazily compiled code, the resize cache for the ladder size), then measure RSS.
  for (let i = 0; i < 20; i++) {
    await query(undefined, { filter: byIds([employee(1)]) });
    await call(undefined, "/api/v0/storage/public/public-assets/catalog/desk.jpg?w=256");
  }
  const before = { proxy: rssMb(board.proc.pid as number), service: rssMb(board.servicePid) };
  const peak = { ...before };
  const sampler = setInterval(() => {
    peak.proxy = Math.max(peak.proxy, rssMb(board.proc.pid as number));
    peak.service = Math.max(peak.service, rssMb(board.servicePid));
  }, 200);

  const lastBonus = new Map<string, number>();
  const lastSalary = new Map<number, number>();
  let acknowledged = 0;
  const deadline = Date.now() + SECONDS * 1000;
  let serial = 0;

  async function writer(w: number) {
    const ids = idsOf(w);
    for (let i = 0; Date.now() < deadline; i++) {
      const value = ++serial;
      if (i % 4 === 3) {
        const res = await update("update-bulk", { filter: byIds(ids), values: [{ key: "annual_salary", value }] });
        if (res.status === 200) {
          lastSalary.set(w, value);
          acknowledged++;
        }
      } else {
        const id = ids[i % ids.length];
        const res = await update("update-one", { filter: { and: [{ key: "employee_id", operator: "equal", value: id }] }, values: [{ key: "bonus", value }] });
        if (res.status === 200) {
          lastBonus.set(id, value);
          acknowledged++;
        }
      }
    }
  }
  const departments = ["Engineering", "Sales", "Finance", "Marketing", "IT"];
  async function reader(r: number) {
    for (let i = r; Date.now() < deadline; i++) {
      switch (i % 4) {
        case 0:
          await query("query-nested", {
            filter: {
              and: [
                { or: [{ key: "department", operator: "equal", value: departments[i % departments.length] }, { key: "country", operator: "equal", value: "United States" }] },
                { and: [{ key: "age", operator: "greaterThan", value: 20 + (i % 30) }, { key: "annual_salary", operator: "greaterThan", value: 50_000 }] },
              ],
            },
            sort: [{ key: "hire_date", direction: "descending" }],
            limit: 50,
          });
          break;
        case 1:
          await query("lookup-pk", { filter: { and: [{ key: "employee_id", operator: "equal", value: employee(1 + ((i * 7919) % 1000)) }] } });
          break;
        case 2:
          await call("file-get", "/api/v0/storage/public/public-assets/catalog/desk.jpg");
          break;
        default:
          await call("file-resized", "/api/v0/storage/public/public-assets/catalog/lamp.png?w=256");
      }
    }
  }

  console.log(`${WRITERS} writers and ${READERS} readers through ${board.url} for ${SECONDS} s (load average before: ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)…`);
  const t0 = performance.now();
  await Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), ...Array.from({ length: READERS }, (_, r) => reader(r))]);
  const elapsed = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 2000));
  const after = { proxy: rssMb(board.proc.pid as number), service: rssMb(board.servicePid) };

  // Every acknowledged write, read back: the last value each writer saw acknowledged.
  let lost = 0;
  for (let w = 0; w < WRITERS; w++) {
    const res = await query(undefined, { filter: byIds(idsOf(w)), limit: ROWS_PER_WRITER });
    const rows = new Map(((res.json as { items?: Record<string, unknown>[] })?.items ?? []).map((row) => [row.employee_id as string, row]));
    for (const id of idsOf(w)) {
      const row = rows.get(id);
      if (lastBonus.has(id) && row?.bonus !== lastBonus.get(id)) lost++;
      if (lastSalary.has(w) && row?.annual_salary !== lastSalary.get(w)) lost++;
    }
  }

  let total = 0;
  console.log(`\n${"kind".padEnd(14)}${"requests".padStart(10)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}`);
  for (const kind of KINDS) {
    const xs = (latencies.get(kind) ?? []).sort((a, b) => a - b);
    total += xs.length;
    console.log(`${kind.padEnd(14)}${String(xs.length).padStart(10)}${(xs.length / elapsed).toFixed(0).padStart(9)}${pct(xs, 50).toFixed(1).padStart(9)}${pct(xs, 99).toFixed(1).padStart(9)}`);
  }
  console.log(`${"all".padEnd(14)}${String(total).padStart(10)}${(total / elapsed).toFixed(0).padStart(9)}`);
  const non2xx = [...statuses].map(([s, n]) => `${s}: ${n}`).join(", ") || "none";
  const fiveXx = [...statuses].filter(([s]) => s.startsWith("5") || s.startsWith("network")).reduce((n, [, c]) => n + c, 0);
  console.log(`\nnon-2xx answers: ${non2xx}`);
  console.log(`RSS proxy  : ${before.proxy.toFixed(0)} MB before, ${peak.proxy.toFixed(0)} MB peak, ${after.proxy.toFixed(0)} MB after`);
  console.log(`RSS service: ${before.service.toFixed(0)} MB before, ${peak.service.toFixed(0)} MB peak, ${after.service.toFixed(0)} MB after`);
  console.log(`acknowledged writes: ${acknowledged}; last values checked: ${lastBonus.size} bonus, ${lastSalary.size} bulk; lost: ${lost}`);
  console.log(`targets: zero 5xx/network errors: ${fiveXx === 0 ? "met" : `NOT met (${fiveXx})`}; zero lost writes: ${lost === 0 ? "met" : "NOT met"}`);

  await agent.close();
  await new Promise<void>((r) => {
    board.proc.once("exit", () => r());
    board.proc.kill("SIGTERM");
  });
  fs.rmSync(dir, { recursive: true, force: true });
}
