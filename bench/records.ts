/**
 * Benchmark "records" (`npm run bench -- records [--engine duckdb]`), issue 10 item 7:
 *
 * 1. import: 1,000,000 generated employees (BENCH_RECORDS_ROWS) written to a CSV file and
 *    imported with the code `npm run import` runs (types inferred), timed, with peak RSS;
 * 2. the issue's four queries over HTTP to the service (Baseboard launched as `npm start` runs
 *    it, in a child process) beside the engine's own time for the same compiled SQL run
 *    directly in this process (on a copy of the database: the embedded file is locked by its
 *    process), alternating one request each; a next page of the same filter shows the count
 *    reused;
 * 3. the stall: /api/health and a primary-key lookup through the proxy, with and without the
 *    heaviest query in flight.
 *
 * Each first-page request is made unique (values drawn at random, or one always-true
 * `employee_id notEqual` condition) so the service's count cache never answers it.
 * Not a test: it prints figures, ratios and whether the targets were met.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Pool } from "undici";
import { parseServiceConfig } from "../src/server/service/config";
import { openEngine } from "../src/server/service/engines/open";
import { importCsv } from "../src/server/service/records/import/csv-import";
import { createSearchIndexes } from "../src/server/service/records/search-index/search-index";
import { employeesTable, generateEmployees, prng } from "../src/server/service/records/sample-data";
import { SqlRecordStore } from "../src/server/service/records/store";
import type { QueryBodyInput } from "../src/shared/records";
import { argValue, benchEngines, launchBaseboard, type Launched, ms, stats, stopBaseboard, timed, verdict, writeCsv } from "./records-support";

const ENGINE = argValue("--engine") ?? "duckdb";
const ROWS = Number(argValue("--rows") ?? process.env.BENCH_RECORDS_ROWS ?? 1_000_000);
const SCALE = Number(process.env.BENCH_RECORDS_SAMPLES ?? 1);
const STALL_SECONDS = Number(process.env.BENCH_RECORDS_STALL_SECONDS ?? 8);
const KEY = "bench-records-key-5d1f";
const DIRECTUS_NESTED_P50 = 426;
const QUERY_PATH = "/v0/record/demo/employees/query";
const WIDTH = Math.max(5, String(ROWS).length);
const id = (n: number) => `E${String(n).padStart(WIDTH, "0")}`;
const rand = prng(99);
const pickInt = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
let serial = 0;
/** Always true (the primary key is never null), and new each time: no cached count answers. */
const unique = () => ({ key: "employee_id", operator: "notEqual", value: `none-${++serial}` });
const needles = ["son", "ia", "chen", "li", "mü", "zoë", "ng", "ar", "wei", "costa"];

const queries: { name: string; samples: number; target?: number; body: () => QueryBodyInput }[] = [
  {
    name: "nested 2-level and/or + sort + limit 50 + count",
    samples: 40,
    target: 100,
    body: () => ({
      filter: {
        and: [
          {
            or: [
              { and: [{ key: "department", operator: "equal", value: "Engineering" }, { key: "age", operator: "greaterThanOrEqual", value: pickInt(25, 50) }] },
              { and: [{ key: "country", operator: "equal", value: "Brazil" }, { key: "job_title", operator: "equal", value: "Account Executive" }] },
            ],
          },
          { key: "annual_salary", operator: "greaterThan", value: pickInt(60_000, 200_000) },
        ],
      },
      sort: [{ key: "hire_date", direction: "descending" }],
      limit: 50,
    }),
  },
  {
    name: "contains on a text Field + sort + count + one page",
    samples: 40,
    target: 100,
    body: () => ({
      filter: { and: [{ key: "full_name", operator: "contains", value: needles[pickInt(0, needles.length - 1)] }, unique()] },
      sort: [{ key: ["hire_date", "annual_salary"][pickInt(0, 1)], direction: rand() < 0.5 ? "ascending" : "descending" }],
      limit: 50,
    }),
  },
  {
    name: `notContains + sort on 2 unindexed Fields + skip ${(ROWS - 1000).toLocaleString("en-US")}`,
    samples: 6,
    body: () => ({
      filter: { and: [{ key: "full_name", operator: "notContains", value: "xyz" }, unique()] },
      sort: [{ key: "bonus", direction: "ascending" }, { key: "full_name", direction: "descending" }],
      skip: ROWS - 1000,
      limit: 50,
    }),
  },
  {
    name: "sort by one Field + limit 50 (count cached after the first)",
    samples: 20,
    target: 150,
    body: () => ({ sort: [{ key: ["hire_date", "annual_salary", "full_name", "country"][pickInt(0, 3)], direction: rand() < 0.5 ? "ascending" : "descending" }], limit: 50 }),
  },
  {
    name: "primary-key lookup",
    samples: 400,
    target: 2.5,
    body: () => ({ filter: { and: [{ key: "employee_id", operator: "equal", value: id(pickInt(1, ROWS)) }] } }),
  },
];

/** "512MB", "2GB" → MB. */
function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([KMG])i?B$/i.exec(s);
  if (!m) return NaN;
  return Number(m[1]) * { K: 1 / 1024, M: 1, G: 1024 }[m[2].toUpperCase() as "K" | "M" | "G"];
}

async function sampleRss<T>(fn: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  try {
    return { value: await fn(), peakMb: peak / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

export async function run(): Promise<void> {
  const engineOption = benchEngines[ENGINE];
  if (!engineOption) throw new Error(`--engine ${ENGINE}: choose from ${Object.keys(benchEngines).join(", ")}`);
  const stopEngine = await engineOption.prepare?.();
  const ratioTarget = engineOption.ratioTarget ?? 1.25;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bench-records-"));
  const dataDir = path.join(scratch, "data");
  const env = engineOption.env(dataDir);
  const config = { ...parseServiceConfig([], { ...process.env, ...env }), seed: false };
  let board: Launched | undefined;
  const pools: Pool[] = [];
  const lines: string[] = [];
  const report = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  try {
    // 1. Import.
    // Generated once per row count and kept in the temporary directory (10M rows: 1.2 GB).
    const csv = path.join(os.tmpdir(), `bb-bench-employees-${ROWS}.csv`);
    let t = performance.now();
    if (!fs.existsSync(csv)) {
      await writeCsv(`${csv}.part`, employeesTable.fields.map((f) => f.key), generateEmployees(ROWS));
      fs.renameSync(`${csv}.part`, csv);
    }
    const csvMb = fs.statSync(csv).size / 1024 / 1024;
    console.log(`engine ${ENGINE}; wrote ${ROWS.toLocaleString("en-US")} employees as CSV (${csvMb.toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const engine = await openEngine(config);
    const store = await SqlRecordStore.open(engine);
    const rssBefore = process.memoryUsage().rss / 1024 / 1024;
    t = performance.now();
    const imported = await sampleRss(() => importCsv(store, csv, { databaseId: "demo", slug: "employees", primaryKey: "employee_id" }));
    const importS = (performance.now() - t) / 1000;
    if (!imported.value.ok) throw new Error(imported.value.error.message);
    // The search index `contains` may use, where the engine offers one (PostgreSQL's pg_trgm).
    let searchIndexLine: string | undefined;
    if (engine.dialect.searchIndex) {
      t = performance.now();
      const made = await createSearchIndexes(store, "demo", "employees", ["full_name"]);
      searchIndexLine = made.ok
        ? `search index (pg_trgm) on full_name for contains: built in ${((performance.now() - t) / 1000).toFixed(1)} s`
        : `no search index: ${made.error.message}`;
    }
    await engine.close();
    report(
      `import of ${ROWS.toLocaleString("en-US")} rows (types inferred, all or nothing): ${importS.toFixed(1)} s, ` +
        `${Math.round(ROWS / importS).toLocaleString("en-US")} rows/s, peak RSS ${imported.peakMb.toFixed(0)} MB ` +
        `(${rssBefore.toFixed(0)} MB before) — target ≤ 60 s: ${verdict(importS <= 60)}` +
        (ENGINE === "duckdb" ? `; peak RSS < DUCKDB_MEMORY_LIMIT (${config.duckdb.memoryLimit}) + 300 MB: ${verdict(imported.peakMb < parseSize(config.duckdb.memoryLimit) + 300)}` : ""),
    );

    if (searchIndexLine) report(searchIndexLine);

    // 1b. The same file again into the Table it made: every Record updated (an existing Table's
    // import; on DuckDB the Table is rebuilt beside itself, import/rebuild.ts).
    {
      const again = await openEngine(config);
      const againStore = await SqlRecordStore.open(again);
      const rss = process.memoryUsage().rss / 1024 / 1024;
      t = performance.now();
      const re = await sampleRss(() => importCsv(againStore, csv, { databaseId: "demo", slug: "employees" }));
      const s = (performance.now() - t) / 1000;
      await again.close();
      if (!re.value.ok) report(`import into the existing Table (every Record updated): failed: ${re.value.error.message}`);
      else
        report(
          `import into the existing Table (every Record updated: ${re.value.value.updated.toLocaleString("en-US")}, ${re.value.value.loadedBy}): ${s.toFixed(1)} s, ` +
            `peak RSS ${re.peakMb.toFixed(0)} MB (${rss.toFixed(0)} MB before) — target ≤ 60 s: ${verdict(s <= 60)}` +
            (ENGINE === "duckdb" ? `; peak RSS < DUCKDB_MEMORY_LIMIT + 300 MB: ${verdict(re.peakMb < parseSize(config.duckdb.memoryLimit) + 300)}` : ""),
        );
    }

    // 2. Queries: HTTP to the service vs the same SQL straight through the engine.
    const directDir = engineOption.directDataDir(dataDir, scratch);
    board = await launchBaseboard({ ...env, API_KEY: KEY });
    const direct = await openEngine({ ...config, dataDir: directDir });
    const directStore = await SqlRecordStore.open(direct);
    const table = (await directStore.table("demo", "employees"))!;
    const service = new Pool(board.serviceUrl, { connections: 4, keepAliveTimeout: 60_000 });
    pools.push(service);
    const viaHttp = (body: QueryBodyInput) => timed(service, QUERY_PATH, body, { "x-api-key": KEY });
    const driver = await engineOption.directDriver?.();
    const viaEngine = async (body: QueryBodyInput) => {
      const c = directStore.compiler.compileRead(table, body);
      if (!c.ok) throw new Error(c.error.message);
      // What the service runs: a first page of a primary-key lookup needs no count query.
      const statements = c.value.atMostOne && !body.skip ? [c.value.items] : [c.value.items, c.value.count];
      const started = performance.now();
      await (driver ? driver.run(statements) : direct.read(statements));
      return performance.now() - started;
    };

    report(`\nqueries at ${ROWS.toLocaleString("en-US")} rows: HTTP to the service vs ${driver?.label ?? "the engine's direct time for the same SQL"} (alternating)`);
    let nestedP50 = NaN;
    for (const q of queries) {
      for (let i = 0; i < 2; i++) {
        await viaHttp(q.body());
        await viaEngine(q.body());
      }
      const h: number[] = [];
      const d: number[] = [];
      const n = Math.max(3, Math.round(q.samples * SCALE));
      for (let i = 0; i < n; i++) {
        h.push(await viaHttp(q.body()));
        d.push(await viaEngine(q.body()));
      }
      const hs = stats(h);
      const ds = stats(d);
      if (q.name.startsWith("nested")) nestedP50 = hs.p50;
      const r = hs.p50 / ds.p50;
      const target = q.target === undefined ? "" : `; p50 target ≤ ${q.target} ms: ${verdict(hs.p50 <= q.target)}`;
      report(`  ${q.name} (n=${n}): HTTP p50 ${ms(hs.p50)} p99 ${ms(hs.p99)}; direct p50 ${ms(ds.p50)}; HTTP/direct ${r.toFixed(2)}× (≤ ${ratioTarget}×: ${verdict(r <= ratioTarget)})${target}`);
      if (q.name.startsWith("nested") || q.name.startsWith("contains")) {
        const body = q.body();
        await viaHttp(body);
        const next: number[] = [];
        for (let i = 1; i <= Math.max(3, Math.round(20 * SCALE)); i++) next.push(await viaHttp({ ...body, skip: 50 * i }));
        report(`    next pages of one filter (count reused until the table changes): HTTP p50 ${ms(stats(next).p50)}`);
      }
    }
    report(`  nested vs Directus 12.4 (${DIRECTUS_NESTED_P50} ms p50, the issue's figure; Directus is not available here): ${(DIRECTUS_NESTED_P50 / nestedP50).toFixed(1)}× faster (≥ 6×: ${verdict(DIRECTUS_NESTED_P50 / nestedP50 >= 6)})`);
    await direct.close();
    await driver?.close();

    // 3. Stall: light requests through the proxy, alone and with the heaviest query in flight.
    const light = new Pool(board.url, { connections: 2, keepAliveTimeout: 60_000 });
    const heavyPool = new Pool(board.url, { connections: 1, keepAliveTimeout: 60_000 });
    pools.push(light, heavyPool);
    // Two heavy queries: the query list's deep skip (the far end, read from there), and a page in
    // the middle of a sort on two Fields (numbered by its keys: DuckDB's heaviest read here).
    const heavies: [string, () => QueryBodyInput][] = [
      ["the deep skip above", queries[2].body],
      [
        `a page at skip ${Math.floor(ROWS / 2).toLocaleString("en-US")} of a 2-Field sort`,
        () => ({
          filter: { and: [{ key: "full_name", operator: "notContains", value: "xyz" }, unique()] },
          sort: [{ key: "full_name", direction: "descending" }, { key: "city", direction: "ascending" }],
          skip: Math.floor(ROWS / 2),
          limit: 50,
        }),
      ],
    ];
    const pk = queries[queries.length - 1].body;
    // Latencies of the answers that came; failures are counted (a 507 is a finding, not a crash).
    const attempt = async (into: number[], failed: string[], pool: Pool, pathname: string, body?: unknown) => {
      try {
        into.push(await timed(pool, pathname, body));
      } catch (e) {
        failed.push((e as Error).message.slice(0, 120));
      }
    };
    const probe = async (seconds: number) => {
      const health: number[] = [];
      const lookup: number[] = [];
      const failed: string[] = [];
      const deadline = performance.now() + seconds * 1000;
      while (performance.now() < deadline) {
        await attempt(health, failed, light, "/api/health");
        await attempt(lookup, failed, light, `/api${QUERY_PATH}`, pk());
        await new Promise((r) => setTimeout(r, 10));
      }
      return { health: stats(health), lookup: stats(lookup), failed };
    };
    const alone = await probe(Math.min(3, STALL_SECONDS));
    for (const [label, heaviest] of heavies) {
      let stop = false;
      const heavyTimes: number[] = [];
      const heavyFailed: string[] = [];
      const heavyLoop = (async () => {
        while (!stop) await attempt(heavyTimes, heavyFailed, heavyPool, `/api${QUERY_PATH}`, heaviest());
      })();
      const loaded = await probe(STALL_SECONDS);
      stop = true;
      await heavyLoop;
      report(`\nstall: light requests through the proxy every 10 ms, alone vs beside ${label} (${heavyTimes.length} answered, p50 ${ms(stats(heavyTimes).p50)}${heavyFailed.length ? `; ${heavyFailed.length} failed: ${heavyFailed[0]}` : ""})`);
      for (const [what, a, b] of [
        ["/api/health", alone.health, loaded.health],
        ["primary-key lookup", alone.lookup, loaded.lookup],
      ] as const) {
        report(`  ${what}: alone p50 ${ms(a.p50)} p99 ${ms(a.p99)}; under load p50 ${ms(b.p50)} p99 ${ms(b.p99)} max ${ms(b.max)} (n=${b.n}) — p99 < 50 ms: ${verdict(b.p99 < 50 && loaded.failed.length === 0)}`);
      }
      if (loaded.failed.length) report(`  light requests that failed beside it: ${loaded.failed.length} (${loaded.failed[0]})`);
    }
    console.log(`\nSummary (${ENGINE}):\n${lines.join("\n")}`);
  } finally {
    for (const p of pools) await p.close();
    if (board) await stopBaseboard(board);
    fs.rmSync(scratch, { recursive: true, force: true });
    await stopEngine?.();
  }
}
