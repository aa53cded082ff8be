/**
 * The supervisor with real child processes: a small script that speaks the child protocol and
 * dies when told to (FIXTURE_MODE), so restarts, backoff, giving up and stopping are checked
 * in a second rather than with the whole service (launcher.test.ts does that end to end).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSupervisor, type SupervisorOptions } from "./supervisor";
import { alive } from "./testing/process-alive";

let dir: string;
let script: string;

// ready: listen and say so; crash-after-ready: die 100 ms after saying so (first run only,
// marked by a file); fail: say "failed" and exit 1; exit: exit 3 before saying anything.
const FIXTURE = `
import fs from "node:fs";
import http from "node:http";
const mode = process.env.FIXTURE_MODE;
process.once("message", (m) => {
  if (mode === "fail") return process.send({ type: "failed", message: "disk on fire" }, () => process.exit(1));
  if (mode === "exit") process.exit(3);
  const server = http.createServer((_q, s) => s.end("ok")).listen(m.port, "127.0.0.1", () => {
    process.send({ type: "ready", url: "http://127.0.0.1:" + server.address().port });
    const marker = process.env.FIXTURE_MARKER;
    if (mode === "crash-after-ready" && !fs.existsSync(marker)) {
      fs.writeFileSync(marker, String(m.port));
      setTimeout(() => process.exit(9), 100);
    }
  });
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
  process.on("disconnect", () => process.exit(0));
});
`;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-supervisor-"));
  script = path.join(dir, "child.mjs");
  fs.writeFileSync(script, FIXTURE);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function supervisor(mode: string, logs: string[], extra: Partial<SupervisorOptions> = {}) {
  return createSupervisor({
    command: { script, execArgv: [], env: { FIXTURE_MODE: mode, FIXTURE_MARKER: path.join(dir, `marker-${mode}-${logs.length}-${Math.random()}`) } },
    start: { port: 0, dataDir: dir, apiKeys: [{ key: "k" }] },
    log: (line) => logs.push(line),
    policy: { baseMs: 20, maxMs: 100, maxFailures: 3, stableMs: 60_000 },
    ...extra,
  });
}

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

it("restarts a child that dies, on the same port, and logs it", async () => {
  const logs: string[] = [];
  const s = supervisor("crash-after-ready", logs);
  const url = await s.start();
  expect(s.state()).toBe("up");
  const first = s.pid() as number;
  await until(() => s.state() === "restarting");
  await until(() => s.state() === "up");
  expect(s.restarts()).toBe(1);
  expect(s.pid()).not.toBe(first);
  expect((await fetch(url)).status).toBe(200);
  expect(logs.join("\n")).toMatch(/exited with code 9; restarting it[\s\S]*is back \(pid \d+, restart 1\)/);
  const pid = s.pid() as number;
  await s.stop(2000);
  expect(s.state()).toBe("stopped");
  expect(alive(pid)).toBe(false);
});

it("rejects the first start with the child's own reason", async () => {
  const s = supervisor("fail", []);
  await expect(s.start()).rejects.toThrow("The local service could not start: disk on fire");
  expect(s.state()).toBe("down");
});

it("gives up after maxFailures failed restarts in a row, and says so", async () => {
  const logs: string[] = [];
  // The first child runs; every later one dies at once (the marker file flips the mode).
  const marker = path.join(dir, "flip");
  const flip = `
import fs from "node:fs";
if (fs.existsSync(${JSON.stringify(marker)})) process.exit(3);
fs.writeFileSync(${JSON.stringify(marker)}, "");
process.once("message", () => { process.send({ type: "ready", url: "http://127.0.0.1:1" }); setTimeout(() => process.exit(1), 50); });
process.on("disconnect", () => process.exit(0));
`;
  const flipScript = path.join(dir, "flip.mjs");
  fs.writeFileSync(flipScript, flip);
  const s = supervisor("", logs, { command: { script: flipScript, execArgv: [], env: {} } });
  await s.start();
  await until(() => s.state() === "down");
  expect(logs.filter((l) => l.includes("could not restart"))).toHaveLength(2);
  expect(logs.at(-1)).toMatch(/failed to start 3 times in a row; Baseboard stopped restarting it/);
  await s.stop();
});
