/**
 * Benchmark "storage-jobs" (`npm run bench -- storage-jobs`, issue 22), on the default engine
 * (DuckDB) and the disk backend, the service as a child process:
 *  1. move of a 10,000-file folder as one job (objects/s), beside uploading the same files (the
 *     write path it replaces: a client-side move would re-upload and delete each file);
 *  2. search at 1,000,000 objects (p50 over 30 queries of each kind: a rare name, a common one):
 *     the endpoint's query (metadata-search.ts) on rows written straight into the metadata
 *     table with DuckDB's range() (uploading a million files would take hours).
 */
import { randomUUID } from "node:crypto";
import { CompiledQuery } from "kysely";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openEngine } from "../src/server/service/engines/open";
import { createMetadataTables } from "../src/server/service/storage/metadata";
import { openSearchStore } from "../src/server/service/storage/metadata-search";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { startService, stopService } from "./storage";

const FILES = Number(process.env.BENCH_JOBS_FILES ?? 10_000);
const OBJECTS = Number(process.env.BENCH_SEARCH_OBJECTS ?? 1_000_000);
const KEY = "bench-storage-key";
const headers = { "x-api-key": KEY };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function upload(url: string, key: string) {
  const form = new FormData();
  form.append("key", key);
  form.append("file", new Blob([`bench ${key}`], { type: "text/plain" }), "f.txt");
  const res = await fetch(`${url}/v0/storage/object/public-assets`, { method: "POST", body: form, headers });
  if (res.status !== 200) throw new Error(`upload ${res.status}`);
}

async function moveFolder(dir: string, backend: "disk" | "S3" = "disk", env: NodeJS.ProcessEnv = {}) {
  const svc = await startService(path.join(dir, `data-move-${backend}`), "tsx", env);
  try {
    const t0 = performance.now();
    for (let i = 0; i < FILES; i += 32) await Promise.all(Array.from({ length: Math.min(32, FILES - i) }, (_, j) => upload(svc.url, `src/f-${i + j}.txt`)));
    const uploadRate = FILES / ((performance.now() - t0) / 1000);
    const t1 = performance.now();
    const res = await fetch(`${svc.url}/v0/storage/jobs/public-assets`, { method: "POST", body: JSON.stringify({ action: "move", from: "src/", to: "dst/" }), headers: { ...headers, "content-type": "application/json" } });
    const { id } = (await res.json()) as { id: string };
    for (;;) {
      const s = (await (await fetch(`${svc.url}/v0/storage/jobs/public-assets/${id}`, { headers })).json()) as { state: string; done: number };
      if (s.state !== "running") {
        if (s.state !== "done" || s.done !== FILES) throw new Error(`move ended ${s.state} at ${s.done}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const moveRate = FILES / ((performance.now() - t1) / 1000);
    console.log(`move of a ${FILES}-file folder (${backend}, DuckDB)${backend === "S3" ? "  " : ""}     ${moveRate.toFixed(0).padStart(8)} objects/s   (uploading them: ${uploadRate.toFixed(0)} objects/s; ratio ${(moveRate / uploadRate).toFixed(1)}x)`);
  } finally {
    await stopService(svc.child);
  }
}

async function search(dir: string) {
  const dataDir = path.join(dir, "data-search");
  fs.mkdirSync(dataDir, { recursive: true });
  const engine = await openEngine({ dataDir, duckdb: { memoryLimit: "1GB", threads: 2 }, postgres: undefined } as never);
  await createMetadataTables(engine);
  const t0 = performance.now();
  await engine.write((tx) =>
    tx.run(
      CompiledQuery.raw(`insert into _storage_objects select 'public-assets', 'folder-' || (i % 1000) || '/sub/Report-' || i || '.pdf', i + 1, '${randomUUID()}-' || i, 1000, 'application/pdf', 'x', 0 from range(${OBJECTS}) t(i)`),
    ),
  );
  console.log(`(wrote ${OBJECTS} metadata rows in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  // The query the search endpoint runs, in this process: a service started on these rows would
  // first sweep them as "rows whose blob is gone" (there are no blobs behind them).
  const store = await openSearchStore(engine, (m) => console.log(m));
  try {
    const kinds: [string, (i: number) => string][] = [
      ["a rare name (1 hit)", (i) => `report-${123_457 + i * 7919}.`],
      ["a common one (page of 100)", (i) => `folder-${i}/`],
    ];
    for (const [label, q] of kinds) {
      const times: number[] = [];
      for (let i = 0; i < 31; i++) {
        const t = performance.now();
        const rows = await store.search("public-assets", q(i), "", 101);
        if (rows.length === 0) throw new Error(`search found nothing for ${q(i)}`);
        if (i > 0) times.push(performance.now() - t); // the first warms up
      }
      console.log(`search at ${OBJECTS} objects, ${label.padEnd(27)} p50 ${median(times).toFixed(1).padStart(7)} ms   target ≤ 100 ms ${median(times) <= 100 ? "met" : "NOT met"}`);
    }
  } finally {
    await engine.close();
  }
}

/** The same move with the blobs on S3 (s3rver on loopback, in this process). */
async function moveOnS3(dir: string) {
  const s3dir = path.join(dir, "s3rver");
  fs.mkdirSync(s3dir);
  const s3 = new S3rver({ address: "127.0.0.1", port: 0, directory: s3dir, silent: true });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  try {
    await new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials }).send(new CreateBucketCommand({ Bucket: "bench-jobs" }));
    await moveFolder(dir, "S3", { STORAGE_URL: "s3://bench-jobs/service", AWS_ENDPOINT_URL_S3: endpoint, AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" });
  } finally {
    await s3.close();
  }
}

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bench-jobs-"));
  try {
    await search(dir);
    await moveFolder(dir);
    await moveOnS3(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
