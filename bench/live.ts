/**
 * `npm run bench -- live` (issue 20): 200 subscribers of GET /api/events, 50 changes a second
 * through the proxy for 60 s (BENCH_LIVE_SUBSCRIBERS, BENCH_LIVE_RATE, BENCH_LIVE_SECONDS).
 * Prints delivery p50/p99 (from the update being sent to each subscriber parsing its event;
 * target p99 ≤ 250 ms), events missed (target none), and the proxy's RSS and CPU, beside the
 * same updates with no subscriber (the baseline, same run). The proxy runs as its own process
 * (`src/server/launcher/main.ts`, the embedded service its child), measured from /proc.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createParser } from "eventsource-parser";

const SUBS = Number(process.env.BENCH_LIVE_SUBSCRIBERS ?? 200);
const RATE = Number(process.env.BENCH_LIVE_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 60);
const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] : NaN);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function procStats(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  const ticks = Number(stat[11]) + Number(stat[12]); // utime + stime
  const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  return { cpuMs: (ticks * 1000) / 100, rss };
}

async function update(url: string, i: number): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${url}/api/v0/record/demo/employees/update`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url, "x-baseboard-client": "1" },
    body: JSON.stringify({
      filter: { and: [{ key: "employee_id", operator: "equal", value: `E${String((i % 1000) + 1).padStart(5, "0")}` }] },
      values: [{ key: "city", value: `live-${i}-${(performance.timeOrigin + t).toFixed(1)}` }],
    }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`update: HTTP ${res.status}`);
  return performance.now() - t;
}

/** Updates at RATE a second for `seconds`; returns their latencies. */
async function drive(url: string, seconds: number, from: number): Promise<{ lat: number[]; sent: number }> {
  const lat: number[] = [];
  const start = performance.now();
  const total = Math.round(seconds * RATE);
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inflight.push(update(url, from + i).then((ms) => void lat.push(ms)));
  }
  await Promise.all(inflight);
  return { lat, sent: total };
}

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bench-live-"));
  const port = 20000 + Math.floor(Math.random() * 20000);
  // node with tsx's loader, not the tsx command: its own process is the proxy we measure.
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/launcher/main.ts"], {
    env: { ...process.env, PORT: String(port), SERVICE_PORT: "0", DATA_DIR: dir, SERVICE_LOG_LEVEL: "silent", BASEBOARD_DIST: path.join(dir, "no-dist") },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const abort = new AbortController();
  try {
    for (let i = 0; ; i++) {
      if ((await fetch(`${url}/api/health`).catch(() => undefined))?.status === 200) break;
      if (i > 600) throw new Error("the proxy did not start");
      await sleep(100);
    }
    await drive(url, 2, 0); // warm up

    // Baseline: the same updates, nobody listening.
    const s0 = procStats(child.pid as number);
    const base = await drive(url, Math.min(10, SECONDS), 10_000);
    const s1 = procStats(child.pid as number);

    // SUBS subscribers, each parsing every event.
    const delays: number[] = [];
    const got = new Array<number>(SUBS).fill(0);
    let firstId = Number.POSITIVE_INFINITY;
    await Promise.all(
      Array.from({ length: SUBS }, async (_, n) => {
        const res = await fetch(`${url}/api/events`, { headers: { accept: "text/event-stream" }, signal: abort.signal });
        if (res.status !== 200 || !res.body) throw new Error(`subscriber ${n}: HTTP ${res.status}`);
        const ready = new Promise<void>((resolve) => {
          const parser = createParser({
            onEvent(e) {
              if (e.event === "ready") return resolve();
              if (e.event !== "change") return;
              const now = performance.timeOrigin + performance.now();
              const m = /live-(\d+)-([\d.]+)/.exec(e.data);
              if (!m || Number(m[1]) < 100_000) return;
              firstId = Math.min(firstId, Number(e.id));
              got[n]++;
              delays.push(now - Number(m[2]));
            },
          });
          void (async () => {
            const dec = new TextDecoder();
            try {
              for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(dec.decode(chunk, { stream: true }));
            } catch {
              /* aborted at the end */
            }
          })();
        });
        await ready;
      }),
    );
    const s2 = procStats(child.pid as number);
    const loaded = await drive(url, SECONDS, 100_000);
    await sleep(1000); // the last events in flight
    const s3 = procStats(child.pid as number);
    const expected = loaded.sent * SUBS;
    const received = got.reduce((a, b) => a + b, 0);
    const cpu = (a: { cpuMs: number }, b: { cpuMs: number }, seconds: number) => `${((100 * (b.cpuMs - a.cpuMs)) / (seconds * 1000)).toFixed(0)}% of one core`;
    console.log(`${SUBS} subscribers, ${RATE} changes/s for ${SECONDS} s through the proxy (single update by primary key each)`);
    console.log(`delivery (update sent → event parsed by a subscriber): p50 ${pct(delays, 0.5).toFixed(1)} ms, p99 ${pct(delays, 0.99).toFixed(1)} ms (target p99 ≤ 250 ms: ${pct(delays, 0.99) <= 250 ? "met" : "NOT met"})`);
    console.log(`events: ${received.toLocaleString("en-US")} of ${expected.toLocaleString("en-US")} delivered, ${(expected - received).toLocaleString("en-US")} missed (target none: ${expected === received ? "met" : "NOT met"})`);
    console.log(`update latency p50: ${pct(base.lat, 0.5).toFixed(2)} ms with nobody listening, ${pct(loaded.lat, 0.5).toFixed(2)} ms with ${SUBS} subscribers (${(pct(loaded.lat, 0.5) / pct(base.lat, 0.5)).toFixed(2)}×)`);
    console.log(`proxy process: RSS ${(s1.rss / 2 ** 20).toFixed(0)} MiB → ${(s3.rss / 2 ** 20).toFixed(0)} MiB with ${SUBS} subscribers; CPU ${cpu(s0, s1, Math.min(10, SECONDS))} without, ${cpu(s2, s3, SECONDS + 1)} with`);
  } finally {
    abort.abort();
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
