/**
 * Benchmark "storage-resume" (`npm run bench -- storage`, or alone `npm run bench --
 * storage-resume`; issue 22.5): the cost of resumable uploads. A ~200 MB file through the
 * service (child process, disk backend, DuckDB) three ways, each timed from the first byte sent
 * to the versioned key answered:
 *  1. in one go: the one-request multipart upload (the baseline);
 *  2. in parts: start, 8 MiB parts two in flight (as the web app sends them), complete;
 *  3. cut at 50%: as 2, but the connection of the part that crosses the middle is destroyed
 *     half-way; then the client asks which parts are acknowledged, sends the rest, completes.
 * Printed as ratios to the one-go time, median of runs. Completion re-reads every part and
 * writes the object (size and sha256 over the whole content) — that copy is most of the cost.
 * Not a test: no targets, it says what it measured.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fmt, makeFile, mb, report, startService, stopService, timed, uploadFile } from "./storage";

const SIZE = Number(process.env.BENCH_RESUME_BYTES ?? 200 * 1024 * 1024);
const RUNS = Number(process.env.BENCH_RESUME_RUNS ?? 3);
const KEY = "bench-storage-key";
const BUCKET = "public-assets";
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function json<T>(url: string, method: string, body?: unknown): Promise<T> {
  const res = await fetch(url, { method, headers: { "x-api-key": KEY, ...(body === undefined ? {} : { "content-type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** PUTs bytes [start, end) of the file as part n; with `cutAfter`, destroys the connection after that many bytes. */
function putPart(url: string, id: string, n: number, file: string, start: number, end: number, cutAfter?: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method: "PUT",
        path: `/v0/storage/uploads/${BUCKET}/${id}/parts/${n}`,
        headers: { "x-api-key": KEY, "content-type": "application/octet-stream", "content-length": String(end - start) },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => (res.statusCode === 200 ? resolve(true) : reject(new Error(`part ${n}: ${res.statusCode} ${text}`))));
      },
    );
    req.on("error", (e) => (cutAfter !== undefined ? resolve(false) : reject(e)));
    let sent = 0;
    const source = fs.createReadStream(file, { start, end: end - 1, highWaterMark: 1024 * 1024 });
    source.on("data", (chunk) => {
      const c = chunk as Buffer;
      if (cutAfter !== undefined && sent + c.length >= cutAfter) {
        req.write(c.subarray(0, cutAfter - sent));
        source.destroy();
        // The network fails: the socket goes, the answer never comes.
        setTimeout(() => req.destroy(new Error("cut")), 20);
        return;
      }
      sent += c.length;
      if (!req.write(c)) {
        source.pause();
        req.once("drain", () => source.resume());
      }
    });
    source.on("end", () => req.end());
    source.on("error", reject);
  });
}

/** Sends the given parts two at a time; a part listed in `cut` is cut half-way (and not retried here). */
async function sendParts(url: string, id: string, file: string, partSize: number, parts: number[], cut?: number): Promise<void> {
  const todo = [...parts];
  const worker = async () => {
    while (todo.length) {
      const n = todo.shift()!;
      const start = (n - 1) * partSize;
      const end = Math.min(SIZE, n * partSize);
      if (n === cut) {
        await putPart(url, id, n, file, start, end, Math.floor((end - start) / 2));
        todo.length = 0; // the client is gone: nothing more is sent in this attempt
      } else await putPart(url, id, n, file, start, end);
    }
  };
  await Promise.all([worker(), worker()]);
}

async function inParts(url: string, file: string, key: string, cutAtHalf: boolean): Promise<string> {
  const { id, partSize } = await json<{ id: string; partSize: number }>(`${url}/v0/storage/uploads/${BUCKET}`, "POST", { key, size: SIZE });
  const count = Math.ceil(SIZE / partSize);
  const all = Array.from({ length: count }, (_, i) => i + 1);
  if (cutAtHalf) {
    const middle = Math.floor(SIZE / 2 / partSize) + 1;
    await sendParts(url, id, file, partSize, all.filter((n) => n <= middle), middle);
    // Resume: ask what the service has, send the rest.
    const status = await json<{ parts: number[] }>(`${url}/v0/storage/uploads/${BUCKET}/${id}`, "GET");
    await sendParts(url, id, file, partSize, all.filter((n) => !status.parts.includes(n)));
  } else {
    await sendParts(url, id, file, partSize, all);
  }
  const t = performance.now();
  const done = await json<{ key: string }>(`${url}/v0/storage/uploads/${BUCKET}/${id}/complete`, "POST", {});
  completions.push((performance.now() - t) / 1000);
  return done.key;
}

/** Seconds each completion took (putting the parts together), to say where the overhead is. */
const completions: number[] = [];

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bench-resume-"));
  const service = await startService(path.join(dir, "data"));
  try {
    const source = path.join(dir, "source.bin");
    await makeFile(source, SIZE);
    console.log(`\n4. resume overhead: a ${mb(SIZE)} MiB file through the service (disk, DuckDB), seconds (median of ${RUNS} runs, interleaved)`);
    const one: number[] = [];
    const parts: number[] = [];
    const resumed: number[] = [];
    await uploadFile(service.url, BUCKET, "bench/warm.bin", source); // warm up the path and the disk cache
    for (let i = 0; i < RUNS; i++) {
      one.push(await timed(() => uploadFile(service.url, BUCKET, `bench/one-${i}.bin`, source)));
      parts.push(await timed(() => inParts(service.url, source, `bench/parts-${i}.bin`, false)));
      resumed.push(await timed(() => inParts(service.url, source, `bench/resumed-${i}.bin`, true)));
    }
    const o = median(one);
    const p = median(parts);
    const r = median(resumed);
    report("upload in one go", `${fmt(o)} s`, `${fmt(o)} s`, 1, "", true);
    report("upload in 8 MiB parts", `${fmt(p)} s`, `${fmt(o)} s`, p / o, "", true);
    report("cut at 50%, then resumed", `${fmt(r)} s`, `${fmt(o)} s`, r / o, "", true);
    console.log(`  (resume overhead: in parts ${fmt(p / o)}× one go; cut at 50% and resumed ${fmt(r / o)}× one go, ${fmt(r / p)}× uncut parts)`);
    console.log(`  (of which completion, copying the parts into the file: median ${fmt(median(completions))} s)`);
  } finally {
    await stopService(service.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
