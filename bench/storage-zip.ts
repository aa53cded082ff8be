/**
 * Benchmark "storage-zip" (`npm run bench -- storage-zip`, also run by `-- storage`; issue 22):
 * a zip of 1 GB (16 files of 64 MB; BENCH_ZIP_MB) downloaded through the proxy's /api/zip,
 * beside reading the same files one after another through the proxy (the raw read throughput,
 * the floor). Baseboard in this process (proxy and service as in `npm start`), disk backend.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startBaseboard } from "../src/server/launcher/start";

const TOTAL_MB = Number(process.env.BENCH_ZIP_MB ?? 1024);
const FILES = 16;
const FILE_BYTES = Math.floor((TOTAL_MB * 1024 * 1024) / FILES);

async function drain(res: Response): Promise<number> {
  let n = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) n += chunk.length;
  return n;
}

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bench-zip-"));
  const dist = path.join(dir, "dist");
  fs.mkdirSync(dist);
  fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>bench</title>");
  const board = await startBaseboard(
    { PORT: "0", SERVICE_PORT: "0", DATA_DIR: path.join(dir, "data"), SERVICE_LOG_LEVEL: "silent", BASEBOARD_DIST: dist, BASEBOARD_CONFIG: path.join(dir, "c.json"), SERVICE_SEED: "0" },
    { log: () => {} },
  );
  const base = board.url;
  const api = { origin: base, "x-baseboard-client": "1" };
  try {
    const block = Buffer.alloc(FILE_BYTES, 0).map((_, i) => (i * 7 + 3) & 0xff);
    for (let i = 0; i < FILES; i++) {
      const form = new FormData();
      form.set("key", `zipbench/f${i}.bin`);
      form.set("file", new Blob([new Uint8Array(block)]), `f${i}.bin`);
      const res = await fetch(`${base}/api/v0/storage/object/public-assets`, { method: "POST", body: form, headers: api });
      if (res.status !== 200) throw new Error(`upload ${res.status}: ${await res.text()}`);
    }
    const t0 = performance.now();
    let raw = 0;
    for (let i = 0; i < FILES; i++) raw += await drain(await fetch(`${base}/api/v0/storage/public/public-assets/zipbench/f${i}.bin`, { headers: api }));
    const rawS = (performance.now() - t0) / 1000;

    const t1 = performance.now();
    const start = await fetch(`${base}/api/zip`, { method: "POST", headers: { ...api, "content-type": "application/json" }, body: JSON.stringify({ bucket: "public-assets", items: ["zipbench/"] }) });
    const { url } = (await start.json()) as { url: string };
    const zipped = await drain(await fetch(`${base}${url}`, { headers: api }));
    const zipS = (performance.now() - t1) / 1000;
    const mbs = (bytes: number, s: number) => bytes / 1024 / 1024 / s;
    console.log(`raw read of ${FILES} files, ${(raw / 1024 / 1024).toFixed(0)} MB, through the proxy   ${mbs(raw, rawS).toFixed(0).padStart(6)} MB/s   (${rawS.toFixed(1)} s)`);
    console.log(`zip of the same folder, ${(zipped / 1024 / 1024).toFixed(0)} MB                 ${mbs(zipped, zipS).toFixed(0).padStart(6)} MB/s   (${zipS.toFixed(1)} s)`);
    console.log(`zip ÷ raw read throughput                            ${(mbs(zipped, zipS) / mbs(raw, rawS)).toFixed(2)}`);
  } finally {
    await board.close(2000);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
