/**
 * Benchmark "records" (`npm run bench -- records`): a generated 1,000,000-row employees table in
 * a temporary data directory; p50/p99 latency and requests/s at concurrency 1 and 16 for
 * (a) a 3-level nested filter + sort + limit 50 with count, (b) a primary-key lookup and
 * (c) a bulk update of 1,000 matching Records, each beside the same SQL run directly through
 * better-sqlite3 in this process; and (b) beside a bare node:http server answering the same
 * prepared statements. Servers run in child processes so the client does not share their loop.
 * Not a test: it prints ratios and whether the targets were met.
 */
import { type ChildProcess, fork } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { createService } from "../src/server/service/app";
import { parseServiceConfig } from "../src/server/service/config";
import { openDatabase } from "../src/server/service/db";
import { employeesTable, generateEmployees, prng } from "../src/server/service/records/sample-data";
import { insertRows, SqliteRecordStore } from "../src/server/service/records/store";
import { decode } from "../src/server/service/records/values";
import type { QueryBodyInput, RecordRow, UpdateBodyInput } from "../src/shared/records";

const ROWS = Number(process.env.BENCH_RECORDS_ROWS ?? 1_000_000);
const ROUND_S = Number(process.env.BENCH_RECORDS_ROUND_SECONDS ?? 1);
const ROUNDS = Number(process.env.BENCH_RECORDS_ROUNDS ?? 4);
const KEY = "bench-records-key";
const WIDTH = Math.max(5, String(ROWS).length);
const id = (n: number) => `E${String(n).padStart(WIDTH, "0")}`;
const rand = prng(99);
const pickInt = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

const bodies = {
  nested: (): QueryBodyInput => ({
    filter: {
      and: [
        {
          or: [
            { and: [{ key: "department", operator: "equal", value: "Engineering" }, { key: "age", operator: "greaterThanOrEqual", value: pickInt(25, 50) }] },
            { and: [{ key: "country", operator: "equal", value: "Brazil" }, { key: "job_title", operator: "equal", value: "Account Executive" }] },
          ],
        },
        { key: "annual_salary", operator: "greaterThan", value: pickInt(60, 200) * 1000 },
      ],
    },
    sort: [{ key: "hire_date", direction: "descending" }],
    limit: 50,
  }),
  pk: (): QueryBodyInput => ({ filter: { and: [{ key: "employee_id", operator: "equal", value: id(pickInt(1, ROWS)) }] } }),
  bulk: (): UpdateBodyInput => {
    const start = pickInt(0, Math.floor(ROWS / 1000) - 1) * 1000 + 1;
    return {
      values: [{ key: "bonus", value: pickInt(0, 50_000) }],
      filter: { and: [{ key: "employee_id", operator: "greaterThanOrEqual", value: id(start) }, { key: "employee_id", operator: "lessThan", value: id(start + 1000) }] },
    };
  },
};

interface Stats {
  p50: number;
  p99: number;
  rps: number;
  n: number;
}

/** Latencies of one or more rounds, and the time they took. */
interface Sample {
  latencies: number[];
  ms: number;
}

function stats(samples: Sample[]): Stats {
  const s = samples.flatMap((x) => x.latencies).sort((a, b) => a - b);
  const ms = samples.reduce((t, x) => t + x.ms, 0);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99), rps: (s.length * 1000) / ms, n: s.length };
}

async function loadHttp(pool: Pool, concurrency: number, seconds: number, pathname: string, body: () => unknown): Promise<Sample> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        const res = await pool.request({
          path: pathname,
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": KEY },
          body: JSON.stringify(body()),
        });
        const text = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, ms: performance.now() - started };
}

function loadDirect(seconds: number, fn: () => void): Sample {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  while (performance.now() < deadline) {
    const t = performance.now();
    fn();
    latencies.push(performance.now() - t);
  }
  return { latencies, ms: performance.now() - started };
}

/** Child process: the real service, or a bare node:http server over the same statements. */
async function serve(kind: string, dataDir: string): Promise<void> {
  if (kind === "service") {
    const config = { ...parseServiceConfig([], {}), port: 0, dataDir, apiKeys: [{ key: KEY }], seed: false, logLevel: "silent" as const };
    const service = await createService(config);
    process.send?.({ url: await service.listen() });
    return;
  }
  const { sqlite, kysely } = openDatabase(dataDir);
  const store = new SqliteRecordStore(sqlite, kysely);
  const table = store.table("demo", "employees")!;
  const plan = store.compileQuery(table, bodies.pk());
  if (!plan.ok) throw new Error(plan.error.message);
  const items = sqlite.prepare(plan.value.items.sql).raw(true);
  const count = sqlite.prepare(plan.value.count.sql).pluck(true);
  const { columns } = plan.value;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const key = body.filter.and[0].value;
      const rows = items.all(key, ...plan.value.items.parameters.slice(1)) as unknown[][];
      const n = count.get(key) as number;
      const out = rows.map((row) => {
        const record: RecordRow = {};
        for (let i = 0; i < columns.length; i++) record[columns[i].key] = decode(columns[i].field.type, row[i]);
        return record;
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ items: out, count: n }));
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    const address = server.address() as { port: number };
    process.send?.({ url: `http://127.0.0.1:${address.port}` });
  });
}

function start(kind: string, dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(import.meta.url), ["--records-bench-server", kind, dataDir], { stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.once("message", (m: { url: string }) => resolve({ child, url: m.url }));
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

const ms = (v: number) => `${v.toFixed(2)} ms`.padStart(10);
const num = (v: number) => v.toFixed(0).padStart(7);
const ratio = (v: number) => `${v.toFixed(2)}×`.padStart(7);

export async function run(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bench-records-"));
  const children: ChildProcess[] = [];
  try {
    const t = performance.now();
    const { sqlite, kysely } = openDatabase(dataDir);
    const store = new SqliteRecordStore(sqlite, kysely);
    const table = store.createTable(employeesTable);
    insertRows(sqlite, kysely, table, generateEmployees(ROWS));
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    console.log(`Generated ${ROWS.toLocaleString("en-US")} employees with indexes in ${((performance.now() - t) / 1000).toFixed(1)} s.`);

    const service = await start("service", dataDir);
    const bare = await start("bare", dataDir);
    children.push(service.child, bare.child);
    const servicePool = new Pool(service.url, { connections: 16, pipelining: 1, keepAliveTimeout: 60_000 });
    const barePool = new Pool(bare.url, { connections: 16, pipelining: 1, keepAliveTimeout: 60_000 });

    // Parameters are compiled up front, so "direct" times only the SQL itself.
    const queryDirect = (make: () => QueryBodyInput) => {
      const compiled = Array.from({ length: 500 }, () => {
        const q = store.compileQuery(table, make());
        if (!q.ok) throw new Error(q.error.message);
        return q.value;
      });
      const items = sqlite.prepare(compiled[0].items.sql).raw(true);
      const count = sqlite.prepare(compiled[0].count.sql).pluck(true);
      let i = 0;
      return () => {
        const q = compiled[i++ % compiled.length];
        sqlite.transaction(() => {
          items.all(...q.items.parameters);
          count.get(...q.count.parameters);
        })();
      };
    };
    const updateDirect = () => {
      const compiled = Array.from({ length: 500 }, () => {
        const u = store.compileUpdate(table, bodies.bulk());
        if (!u.ok) throw new Error(u.error.message);
        return u.value.update;
      });
      const stmt = sqlite.prepare(compiled[0].sql);
      let i = 0;
      return () => {
        const info = sqlite.transaction(() => stmt.run(...compiled[i++ % compiled.length].parameters)).immediate();
        if (info.changes !== 1000) throw new Error(`bulk update matched ${info.changes}, not 1000`);
      };
    };

    const measures = [
      { name: "(a) nested filter+sort+limit 50+count", path: "/v0/record/demo/employees/query", body: bodies.nested, direct: queryDirect(bodies.nested) },
      { name: "(b) primary-key lookup", path: "/v0/record/demo/employees/query", body: bodies.pk, direct: queryDirect(bodies.pk) },
      { name: "(c) bulk update of 1,000 Records", path: "/v0/record/demo/employees/update", body: bodies.bulk, direct: updateDirect() },
    ];
    // Other work on this machine comes and goes, so what is compared is measured in
    // alternating one-second rounds, never one long block after the other.
    console.log(`\nEach figure: ${ROUNDS} alternating rounds of ${ROUND_S} s. "direct" = the same SQL through better-sqlite3 in this process (one caller).`);
    console.log(`${"measure".padEnd(40)} conc   HTTP p50   HTTP p99  HTTP/s  direct p50 direct p99 direct/s  p50 ratio  req/s ratio`);
    const verdicts: string[] = [];
    for (const m of measures) {
      loadDirect(0.3, m.direct);
      for (const c of [1, 16]) {
        await loadHttp(servicePool, c, 0.3, m.path, m.body);
        const viaHttp: Sample[] = [];
        const direct: Sample[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          viaHttp.push(await loadHttp(servicePool, c, ROUND_S, m.path, m.body));
          direct.push(loadDirect(ROUND_S, m.direct));
        }
        const h = stats(viaHttp);
        const d = stats(direct);
        console.log(
          `${m.name.padEnd(40)} ${String(c).padStart(4)} ${ms(h.p50)} ${ms(h.p99)} ${num(h.rps)} ${ms(d.p50)} ${ms(d.p99)} ${num(d.rps)} ${ratio(h.p50 / d.p50)} ${ratio(h.rps / d.rps)}`,
        );
        if (m.name.startsWith("(a)") && c === 1) {
          verdicts.push(`(a) HTTP p50 / direct p50 at concurrency 1: ${ratio(h.p50 / d.p50)} (target ≤ 1.50×: ${h.p50 / d.p50 <= 1.5 ? "met" : "NOT met"})`);
        }
      }
    }

    console.log("\n(b) primary-key lookup: local service vs a bare node:http server answering the same prepared statements");
    for (const c of [1, 16]) {
      await loadHttp(barePool, c, 0.3, "/", bodies.pk);
      const viaService: Sample[] = [];
      const viaBare: Sample[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        viaService.push(await loadHttp(servicePool, c, ROUND_S, "/v0/record/demo/employees/query", bodies.pk));
        viaBare.push(await loadHttp(barePool, c, ROUND_S, "/", bodies.pk));
      }
      const sv = stats(viaService);
      const b = stats(viaBare);
      const line = `concurrency ${String(c).padStart(2)}: service ${num(sv.rps)} req/s (p50 ${ms(sv.p50).trim()}), bare node:http ${num(b.rps)} req/s (p50 ${ms(b.p50).trim()}), ratio ${ratio(sv.rps / b.rps)} (target ≥ 0.70×: ${sv.rps / b.rps >= 0.7 ? "met" : "NOT met"})`;
      console.log(`  ${line}`);
      verdicts.push(`(b) ${line}`);
    }
    console.log(
      "\nAt concurrency 16 requests queue for the one SQLite connection (queries run synchronously), so HTTP p50 there\nincludes waiting; compare req/s. Direct figures are one caller in this process.",
    );
    console.log(`\nTargets:\n  ${verdicts.join("\n  ")}`);
    await servicePool.close();
    await barePool.close();
    sqlite.close();
  } finally {
    for (const child of children) child.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--records-bench-server") await serve(process.argv[3], process.argv[4]);
