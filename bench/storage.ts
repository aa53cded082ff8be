/**
 * Benchmark "storage" (`npm run bench -- storage`). The service runs as a child process (its
 * RSS sampled from /proc while it transfers); baselines run in this process in the same run:
 *  1. upload and download of a 1 GiB file through the service beside a plain streamed file copy
 *     on the same disk (both fsync'd), as throughput ratios, with the service's peak RSS
 *     (target under 150 MB). Run twice: as `npm run service` runs it (the esbuild bundle on
 *     plain node with a small young generation) and under tsx as in development (whose loader
 *     alone holds ~45 MB);
 *  2. first resize of a 12-megapixel JPEG to 256 px beside sharp called directly (target ≤ 1.2);
 *  3. a cached variant served beside an original file of the same size served (target ≤ 1.1).
 * With `--backend s3` it measures the S3 backend instead (storage-s3.ts).
 * Not a test: it prints what it measured and whether each target was met.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

export const SIZE = Number(process.env.BENCH_STORAGE_BYTES ?? 1024 ** 3);
const RESIZE_RUNS = Number(process.env.BENCH_STORAGE_RESIZE_RUNS ?? 16);
const SERVE_REQUESTS = Number(process.env.BENCH_STORAGE_SERVE_REQUESTS ?? 400);
const KEY = "bench-storage-key";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
export const fmt = (n: number, digits = 2) => n.toFixed(digits);
export function report(name: string, value: string, baseline: string, ratio: number, target: string, met: boolean) {
  const verdict = target ? `target ${target.padEnd(7)} ${met ? "met" : "NOT met"}` : "(no target)";
  console.log(`${name.padEnd(34)} ${value.padStart(14)}  baseline ${baseline.padStart(14)}  ratio ${fmt(ratio).padStart(5)}  ${verdict}`);
}

type Runtime = "tsx" | "bundle";

/** The service bundle exactly as `npm run service` builds it. */
function bundleService(): string {
  const r = spawnSync("npm", ["run", "build:server", "--silent"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm run build:server failed");
  return path.join(root, "dist-server", "service", "main.js");
}

export function startService(dataDir: string, runtime: Runtime = "tsx", env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string }> {
  const entry = runtime === "tsx" ? ["--import", "tsx", "src/server/service/main.ts"] : ["--max-semi-space-size=1", bundleService()];
  const child = spawn(process.execPath, [...entry, "--port", "0", "--data-dir", dataDir], {
    cwd: root,
    env: { ...process.env, SERVICE_API_KEYS: KEY, SERVICE_SEED: "0", SERVICE_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on("exit", (code) => reject(new Error(`service exited (${code})`)));
  });
}

/** Samples VmRSS of a process every 20 ms while `work` runs; returns its result and the peak. */
export async function withPeakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = 0;
  const sample = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    if (m) peak = Math.max(peak, Number(m[1]) * 1024);
  };
  sample();
  const timer = setInterval(sample, 20);
  try {
    const result = await work();
    sample();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

export async function makeFile(file: string, size: number): Promise<void> {
  const block = randomBytes(1024 * 1024);
  const out = fs.createWriteStream(file);
  for (let written = 0; written < size; written += block.length) {
    if (!out.write(written + block.length <= size ? block : block.subarray(0, size - written))) await new Promise((r) => out.once("drain", r));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

export function uploadFile(url: string, bucket: string, key: string, file: string): Promise<string> {
  const boundary = `bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\n${key}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method: "POST",
        path: `/v0/storage/object/${bucket}`,
        headers: { "x-api-key": KEY, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(head.length + fs.statSync(file).size + tail.length) },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(text).key) : reject(new Error(`upload: ${res.statusCode} ${text}`))));
      },
    );
    req.on("error", reject);
    req.write(head);
    const source = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
    source.on("error", reject);
    source.on("end", () => req.end(tail));
    source.pipe(req, { end: false });
  });
}

export const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
export function get(url: string, pathname: string, sink?: fs.WriteStream): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url + pathname, { agent }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`GET ${pathname}: ${res.statusCode}`));
        if (sink) {
          pipeline(res, sink).then(() => resolve(res.statusCode!), reject);
        } else {
          let n = 0;
          res.on("data", (c: Buffer) => (n += c.length));
          res.on("end", () => resolve(n));
        }
      })
      .on("error", reject);
  });
}

async function copyBaseline(dir: string, source: string): Promise<number> {
  const copy = path.join(dir, "copy.bin");
  const seconds = await timed(() => pipeline(fs.createReadStream(source, { highWaterMark: 1024 * 1024 }), fs.createWriteStream(copy, { flush: true })));
  fs.rmSync(copy);
  return SIZE / seconds / 1024 / 1024;
}

async function transfer(dir: string, source: string, runtime: Runtime) {
  const service = await startService(path.join(dir, `data-${runtime}`), runtime);
  try {
    // The disk is shared and its speed drifts: the copy runs right before and right after.
    const copyBefore = await copyBaseline(dir, source);
    const idle = await withPeakRss(service.child.pid!, async () => undefined);
    const up = await withPeakRss(service.child.pid!, () => timed(() => uploadFile(service.url, "public-assets", "bench/big.bin", source)));
    const downloaded = path.join(dir, "downloaded.bin");
    const down = await withPeakRss(service.child.pid!, () =>
      timed(() => get(service.url, "/v0/storage/public/public-assets/bench/big.bin", fs.createWriteStream(downloaded, { flush: true }))),
    );
    if (fs.statSync(downloaded).size !== SIZE) throw new Error("download size mismatch");
    fs.rmSync(downloaded);
    const copyRate = (copyBefore + (await copyBaseline(dir, source))) / 2;
    const upRate = SIZE / up.result / 1024 / 1024;
    const downRate = SIZE / down.result / 1024 / 1024;
    console.log(`\n1${runtime === "bundle" ? "a" : "b"}. ${mb(SIZE)} MiB through the service (${runtime === "bundle" ? "as npm run service runs it: esbuild bundle on plain node" : "under tsx, as in development"}) vs a plain streamed copy (fsync'd)`);
    report("upload throughput", `${fmt(upRate, 0)} MiB/s`, `${fmt(copyRate, 0)} MiB/s`, upRate / copyRate, "", true);
    report("download throughput", `${fmt(downRate, 0)} MiB/s`, `${fmt(copyRate, 0)} MiB/s`, downRate / copyRate, "", true);
    const peak = Math.max(up.peak, down.peak);
    console.log(
      `${"service peak RSS while transferring".padEnd(34)} ${`${mb(peak)} MB`.padStart(14)}  idle before ${mb(idle.peak)} MB; upload ${mb(up.peak)}, download ${mb(down.peak)}  target < 150 MB ${peak < 150 * 1024 * 1024 ? "met" : "NOT met"}`,
    );
  } finally {
    await stopService(service.child);
  }
}

export async function stopService(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

async function resizing(dir: string, service: { url: string }) {
  console.log("\n2. first resize of a 12-megapixel JPEG to 256 px, seconds (median of runs)");
  const photo = path.join(dir, "photo.jpg");
  await sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .composite([{ input: Buffer.from('<svg width="4000" height="3000"><circle cx="2000" cy="1500" r="1200" fill="#3a6ea5"/></svg>') }])
    .jpeg({ quality: 90 })
    .toFile(photo);
  sharp.cache(false);
  const keys: string[] = [];
  for (let i = 0; i < RESIZE_RUNS; i++) keys.push(await uploadFile(service.url, "public-assets", `bench/photo-${i}.jpg`, photo));
  const viaService: number[] = [];
  const direct: number[] = [];
  const directOnce = () => timed(() => sharp(photo).rotate().resize({ width: 256, fit: "inside", withoutEnlargement: true }).jpeg().toBuffer());
  const serviceOnce = (key: string) => timed(() => get(service.url, `/v0/storage/public/public-assets/${key}?w=256`));
  // Warm both (thread pools, code paths) on a variant not measured.
  await directOnce();
  await serviceOnce(keys[0]);
  for (const [i, key] of keys.slice(1).entries()) {
    // Interleaved, alternating who goes first, so both see the same machine state; each service
    // request is the first for its variant.
    if (i % 2 === 0) {
      direct.push(await directOnce());
      viaService.push(await serviceOnce(key));
    } else {
      viaService.push(await serviceOnce(key));
      direct.push(await directOnce());
    }
  }
  const s = median(viaService);
  const d = median(direct);
  // Pairs ran back to back, so the median of per-pair ratios is the least exposed to load from
  // other processes on a shared machine; it is the one judged. The others are shown beside it.
  const pairRatio = median(viaService.map((v, i) => v / direct[i]));
  report("first resize via the service", `${fmt(s * 1000, 1)} ms`, `${fmt(d * 1000, 1)} ms`, pairRatio, "≤ 1.2", pairRatio <= 1.2);
  console.log(`  (ratio of medians ${fmt(s / d)}, of fastest runs ${fmt(Math.min(...viaService) / Math.min(...direct))}; ${viaService.length} pairs)`);
  console.log("\n3. cached variant served vs an original file of the same size served, ms per request (median)");
  const variantBytes = await new Promise<Buffer>((resolve, reject) => {
    http.get(`${service.url}/v0/storage/public/public-assets/${keys[0]}?w=256`, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve(Buffer.concat(chunks)));
      res.on("error", reject);
    });
  });
  const same = path.join(dir, "same-size.jpg");
  fs.writeFileSync(same, variantBytes);
  const original = await uploadFile(service.url, "public-assets", "bench/same-size.jpg", same);
  const variantTimes: number[] = [];
  const originalTimes: number[] = [];
  for (let i = 0; i < 50; i++) await get(service.url, `/v0/storage/public/public-assets/${original}`); // warm up
  for (let i = 0; i < SERVE_REQUESTS; i++) {
    variantTimes.push(await timed(() => get(service.url, `/v0/storage/public/public-assets/${keys[0]}?w=256`)));
    originalTimes.push(await timed(() => get(service.url, `/v0/storage/public/public-assets/${original}`)));
  }
  const v = median(variantTimes);
  const o = median(originalTimes);
  report(`cached variant (${(variantBytes.length / 1024).toFixed(0)} KiB)`, `${fmt(v * 1000, 3)} ms`, `${fmt(o * 1000, 3)} ms`, v / o, "≤ 1.1", v / o <= 1.1);
}

export async function run(): Promise<void> {
  const backend = process.argv.find((a, i) => process.argv[i - 1] === "--backend" || a.startsWith("--backend="))?.replace("--backend=", "");
  if (backend === "s3") return (await import("./storage-s3")).runS3();
  if (backend && backend !== "disk") throw new Error(`--backend is disk or s3, not ${backend}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bench-storage-"));
  try {
    const source = path.join(dir, "source.bin");
    console.log(`\nwriting a ${mb(SIZE)} MiB test file…`);
    await makeFile(source, SIZE);
    for (const runtime of ["bundle", "tsx"] as const) await transfer(dir, source, runtime);
    fs.rmSync(source);
    const service = await startService(path.join(dir, "data-resize"));
    try {
      await resizing(dir, service);
    } finally {
      agent.destroy();
      await stopService(service.child);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
