/**
 * Storage jobs killed mid-way (issue 22.2): a move of 2,000 files, then a copy and a delete of
 * them, each interrupted by SIGKILL of the service process and finished after a restart. Every
 * file is readable exactly once under its new name with all its versions; runs on disk or S3
 * (storage-s3 project) and on DuckDB or PostgreSQL (postgres project).
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServiceProcess } from "../testing/service-process";
import { afterAll, describe, expect, it } from "vitest";
import { testEngineEnv } from "../testing/test-service";
import { freshS3Bucket } from "../blobs/testing/s3-test-bucket";
import { BACKEND } from "./testing/storage-service";

const KEY = "jobs-crash-key-0123456789";
// 2,000 files on the default (DuckDB, disk), as the issue asks; the S3 and PostgreSQL runs prove
// the same kill-and-resume with 300 (twenty steps of 15, killed after the first) to keep `npm test`
// inside its ten minutes on two cores: with 600 the three runs were a fifth of the suite's worker
// time (180 s of 830 in CI), the S3 run alone 64 s.
const N = BACKEND === "s3" || process.env.BB_TEST_ENGINE === "postgres" ? 300 : 2_000;
const TWICE = 40; // keys with two versions
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-svc-jobs-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let blobEnv: Record<string, string> = {};
async function startChild(): Promise<{ child: ChildProcess; url: string }> {
  const svc = await startServiceProcess({ ...(await testEngineEnv(dataDir)), ...blobEnv, SERVICE_API_KEYS: KEY, SERVICE_SEED: "0", SERVICE_LOG_LEVEL: "warn", STORAGE_JOB_STEP: String(N / 20) }, { dataDir });
  children.push(svc.child);
  return svc;
}

const headers = { "x-api-key": KEY };
const name = (i: number) => `f${String(i).padStart(4, "0")}.txt`;
const body = (i: number, v: number) => `file ${i} version ${v}`;

async function uploadAll(url: string): Promise<Map<number, number>> {
  const firstVersions = new Map<number, number>();
  const one = async (i: number, v: number) => {
    const form = new FormData();
    form.append("key", `src/${i % 3 === 0 ? "deep/er/" : ""}${name(i)}`);
    form.append("file", new Blob([body(i, v)], { type: "text/plain" }), "x.txt");
    const res = await fetch(`${url}/v0/storage/object/public-assets`, { method: "POST", body: form, headers });
    expect(res.status).toBe(200);
    return Number(/^v(\d+)\//.exec(((await res.json()) as { key: string }).key)![1]);
  };
  for (let i = 0; i < N; i += 20) {
    const batch = Array.from({ length: Math.min(20, N - i) }, (_, j) => i + j);
    await Promise.all(batch.map(async (k) => firstVersions.set(k, await one(k, 1))));
  }
  for (let i = 0; i < TWICE; i++) await one(i, 2);
  return firstVersions;
}

const keyOf = (prefix: string, i: number) => `${prefix}${i % 3 === 0 ? "deep/er/" : ""}${name(i)}`;

async function listAll(url: string, prefix: string): Promise<string[]> {
  // Every key under prefix at any depth, through the list extension (folders walked).
  const keys: string[] = [];
  const walk = async (p: string): Promise<void> => {
    let cursor = "";
    do {
      const res = await fetch(`${url}/v0/storage/list/public-assets?prefix=${encodeURIComponent(p)}&limit=1000&cursor=${cursor}`, { headers });
      const page = (await res.json()) as { items: { key: string }[]; folders: string[]; nextCursor: string | null };
      keys.push(...page.items.map((i) => i.key));
      for (const f of page.folders) await walk(f);
      cursor = page.nextCursor ?? "";
    } while (cursor);
  };
  await walk(prefix);
  return keys.sort();
}

async function job(url: string, spec: object): Promise<string> {
  const res = await fetch(`${url}/v0/storage/jobs/public-assets`, { method: "POST", body: JSON.stringify(spec), headers: { ...headers, "content-type": "application/json" } });
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { id: string }).id;
}
const status = async (url: string, id: string) =>
  (await (await fetch(`${url}/v0/storage/jobs/public-assets/${id}`, { headers })).json()) as { state: string; done: number; total: number; error: string | null };

/** Starts a job, kills the service once some but not all is done, restarts; returns the new URL once it is done. */
async function killMidway(svc: { child: ChildProcess; url: string }, spec: object): Promise<string> {
  const id = await job(svc.url, spec);
  for (;;) {
    const s = await status(svc.url, id);
    expect(s.state).toBe("running");
    if (s.done > 0) break;
  }
  svc.child.kill("SIGKILL");
  await new Promise((r) => svc.child.once("exit", r));
  const next = await startChild();
  const mid = await status(next.url, id);
  expect(mid.done).toBeLessThan(N);
  for (;;) {
    const s = await status(next.url, id);
    if (s.state !== "running") {
      expect(s).toMatchObject({ state: "done", done: N, total: N });
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  Object.assign(svc, next);
  return next.url;
}

const read = async (url: string, key: string) => {
  const res = await fetch(`${url}/v0/storage/public/public-assets/${key}`);
  return res.status === 200 ? await res.text() : res.status;
};

describe(`storage jobs killed mid-way (${BACKEND})`, () => {
  it(`move, copy and delete of ${N.toLocaleString("en-US")} files each finish after SIGKILL, losing and doubling nothing`, async () => {
    if (BACKEND === "s3") {
      const s3 = await freshS3Bucket();
      blobEnv = { STORAGE_URL: `s3://${s3.bucket}/${s3.prefix}`, AWS_ENDPOINT_URL_S3: s3.endpoint!, AWS_REGION: s3.region, AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };
    }
    const svc = await startChild();
    const versions = await uploadAll(svc.url);

    // Move: every file once under its new name, none under the old, every version kept.
    let url = await killMidway(svc, { action: "move", from: "src/", to: "dst/" });
    expect(await listAll(url, "src/")).toEqual([]);
    const moved = await listAll(url, "dst/");
    expect(moved).toEqual(Array.from({ length: N }, (_, i) => keyOf("dst/", i)).sort());
    for (let i = 0; i < N; i += 1) {
      if (i % 29 !== 0 && i >= TWICE) continue; // every 29th, and all with two versions (the listing above checks every name)
      expect(await read(url, keyOf("dst/", i))).toBe(body(i, i < TWICE ? 2 : 1));
      expect(await read(url, `v${versions.get(i)}/${keyOf("dst/", i)}`)).toBe(body(i, 1));
      expect(await read(url, keyOf("src/", i))).toBe(404);
    }

    // A second move onto existing names is refused unless asked.
    const refused = await fetch(`${url}/v0/storage/jobs/public-assets`, { method: "POST", body: JSON.stringify({ action: "copy", from: keyOf("dst/", 1), to: keyOf("dst/", 2) }), headers: { ...headers, "content-type": "application/json" } });
    expect(refused.status).toBe(409);
    expect(await read(url, keyOf("dst/", 2))).toBe(body(2, 2));

    // Copy: the copy has every file's newest bytes; the source is untouched.
    url = await killMidway(svc, { action: "copy", from: "dst/", to: "copy/" });
    expect(await listAll(url, "copy/")).toEqual(Array.from({ length: N }, (_, i) => keyOf("copy/", i)).sort());
    for (let i = 0; i < N; i += 37) expect(await read(url, keyOf("copy/", i))).toBe(body(i, i < TWICE ? 2 : 1));
    expect((await listAll(url, "dst/")).length).toBe(N);

    // Delete: the folder is gone, the rest stays.
    url = await killMidway(svc, { action: "delete", from: "copy/" });
    expect(await listAll(url, "copy/")).toEqual([]);
    expect((await listAll(url, "dst/")).length).toBe(N);
    svc.child.kill("SIGKILL");
  }, 420_000); // ~50 s alone; several times that beside the rest of the suite on two cores
});
