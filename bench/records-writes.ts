/**
 * Insert and delete over HTTP (issue 24): `npm run bench -- records-writes [--engine postgres]`
 * (also run by `npm run bench -- records`). A service in this process on a fresh database, with
 * the sample tables seeded; each round inserts 1,000 new employees in one request, then a round
 * of deletes removes 10,000 Records by a filter (startsWith on the key) with expectedCount. p50
 * and p99 over ROUNDS rounds, each against data of the same size.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseServiceConfig } from "../src/server/service/config";
import { createService } from "../src/server/service/app";
import { generateEmployees } from "../src/server/service/records/sample-data";
import { argValue, benchEngines, ms, stats } from "./records-support";

const ENGINE = argValue("--engine") ?? "duckdb";
const ROUNDS = Number(process.env.BENCH_WRITES_ROUNDS ?? 15);
const KEY = "bench-key-0123456789abcdef";

export async function run(): Promise<void> {
  const engineOption = benchEngines[ENGINE];
  if (!engineOption) throw new Error(`--engine ${ENGINE}: choose from ${Object.keys(benchEngines).join(", ")}`);
  const stopEngine = await engineOption.prepare?.();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bench-writes-"));
  const env = engineOption.env(path.join(scratch, "data"));
  const config = { ...parseServiceConfig([], { ...process.env, ...env }), port: 0, host: "127.0.0.1", apiKeys: [{ key: KEY }], logLevel: "silent" as const };
  const service = await createService(config);
  const url = await service.listen();
  const post = async (p: string, body: unknown) => {
    const t = performance.now();
    const res = await fetch(url + p, { method: "POST", headers: { "content-type": "application/json", "x-api-key": KEY }, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${text}`);
    return performance.now() - t;
  };
  const EMP = "/v0/record/demo/employees";
  try {
    const template = [...generateEmployees(1000)];
    const inserts: number[] = [];
    const deletes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // 10 inserts of 1,000 (the last 10 timed as inserts), then one delete of the 10,000.
      for (let batch = 0; batch < 10; batch++) {
        const records = template.map((r, i) => ({ ...r, employee_id: `W${round}-${batch}-${i}` }));
        inserts.push(await post(`${EMP}/insert`, { records }));
      }
      deletes.push(await post(`${EMP}/delete`, { filter: { and: [{ key: "employee_id", operator: "startsWith", value: `W${round}-` }] }, expectedCount: 10_000 }));
    }
    const ins = stats(inserts);
    const del = stats(deletes);
    console.log(`engine ${ENGINE}; ${inserts.length} inserts, ${deletes.length} deletes over HTTP (a table of ~10,000 seeded employees)`);
    console.log(`insert of 1,000 Records: p50 ${ms(ins.p50)}, p99 ${ms(ins.p99)}`);
    console.log(`delete of 10,000 Records by filter (expectedCount checked): p50 ${ms(del.p50)}, p99 ${ms(del.p99)}`);
  } finally {
    await service.close();
    await stopEngine?.();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
