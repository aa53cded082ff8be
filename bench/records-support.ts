/**
 * Helpers of the records benchmark: the engines it can run on, the generated CSV, Baseboard
 * launched as `npm start` runs it, latency statistics. Nothing here measures anything itself.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { CompiledQuery } from "kysely";
import type { Pool } from "undici";
import { DUCKDB_FILE } from "../src/server/service/engines/open";
import { buildServer } from "./build-server";
import { postgresBench } from "./records-postgres";
import type { RecordRow } from "../src/shared/records";

/**
 * What the benchmark needs to know about an engine: the environment that selects it (for the
 * service child and for openEngine here) and where the "direct" measurements read from. The
 * embedded DuckDB file is locked by the process that opens it, so direct reads go to a copy;
 * a PostgreSQL entry would return the same database (DATABASE_URL) for both.
 */
export interface BenchEngine {
  /** Starts what the engine needs (a database server); resolves with how to stop it. */
  prepare?(): Promise<() => Promise<void>>;
  env(dataDir: string): Record<string, string>;
  directDataDir(dataDir: string, scratch: string): string;
  /** Largest HTTP ÷ direct ratio the issue allows on this engine (default 1.25). */
  ratioTarget?: number;
  /**
   * The direct baseline when it is not the engine itself: runs the same compiled statements
   * straight through the database's driver (PostgreSQL: one `pg` client, no pool, no
   * transaction). `label` names it in the report.
   */
  directDriver?(): Promise<{ label: string; run(queries: CompiledQuery[]): Promise<void>; close(): Promise<void> }>;
}

export const benchEngines: Record<string, BenchEngine> = {
  duckdb: {
    env: (dataDir) => ({ DATA_DIR: dataDir }),
    directDataDir(dataDir, scratch) {
      const dir = path.join(scratch, "direct");
      fs.mkdirSync(dir, { recursive: true });
      fs.copyFileSync(path.join(dataDir, DUCKDB_FILE), path.join(dir, DUCKDB_FILE));
      return dir;
    },
  },
  postgres: postgresBench,
};

export function argValue(name: string): string | undefined {
  const argv = process.argv;
  const i = argv.indexOf(name);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Writes rows as CSV (header = the Field names), streamed with backpressure. */
export async function writeCsv(file: string, keys: string[], rows: Iterable<RecordRow>): Promise<void> {
  const out = fs.createWriteStream(file);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once("drain", () => r())));
  await write(`${keys.join(",")}\n`);
  let chunk: string[] = [];
  for (const row of rows) {
    chunk.push(keys.map((k) => csvCell(row[k])).join(","));
    if (chunk.length === 4096) {
      await write(`${chunk.join("\n")}\n`);
      chunk = [];
    }
  }
  if (chunk.length) await write(`${chunk.join("\n")}\n`);
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

export interface Launched {
  proc: ChildProcess;
  url: string;
  serviceUrl: string;
}

/** Baseboard as `npm start` runs it: the esbuild bundle of the launcher on plain node. */
export function launchBaseboard(env: Record<string, string>): Promise<Launched> {
  buildServer();
  const proc = spawn(process.execPath, ["--max-semi-space-size=1", "dist-server/launcher/main.js"], {
    env: { ...process.env, PORT: "0", SERVICE_PORT: "0", SERVICE_LOG_LEVEL: "silent", SERVICE_SEED: "0", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    proc.stdout?.on("data", (d) => {
      out += d;
      const url = /open (http:\/\/\S+)/.exec(out)?.[1];
      const serviceUrl = /local service at (http:\/\/\S+)/.exec(out)?.[1];
      if (url && serviceUrl) resolve({ proc, url, serviceUrl });
    });
    proc.on("exit", (code) => reject(new Error(`Baseboard exited with ${code}: ${out}`)));
  });
}

export function stopBaseboard(child: Launched): Promise<void> {
  return new Promise((r) => {
    if (child.proc.exitCode !== null) return r();
    child.proc.once("exit", () => r());
    child.proc.kill("SIGTERM");
  });
}

export interface Stats {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

export function stats(latencies: number[]): Stats {
  const s = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: s[s.length - 1] ?? NaN, n: s.length };
}

/** One JSON request; returns its latency in ms, throwing on anything but 200. */
export async function timed(pool: Pool, pathname: string, body?: unknown, headers: Record<string, string> = {}): Promise<number> {
  const t = performance.now();
  const res = await pool.request({
    path: pathname,
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} for ${pathname}: ${text.slice(0, 200)}`);
  return performance.now() - t;
}

export const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 1)} ms`;
export const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
