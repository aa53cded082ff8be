/**
 * Issue 9.7: a client that breaks off its upload is nothing wrong with the service. The service
 * (a real process, logging at info as an operator would run it) writes one info line for it,
 * without a stack, and nothing at warn or error.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PROCESS_KEY, type ServiceProcess, startServiceProcess } from "../testing/service-process";
import { testEngineEnv } from "../testing/test-service";
import { waitFor } from "./testing/storage-service";

let dataDir: string;
let svc: ServiceProcess;
let log = "";

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-abort-log-"));
  svc = await startServiceProcess({ DATA_DIR: dataDir, SERVICE_LOG_LEVEL: "info", ...(await testEngineEnv(dataDir)) });
  svc.child.stdout!.on("data", (c: Buffer) => (log += c));
  svc.child.stderr!.on("data", (c: Buffer) => (log += c));
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function cutUpload(): Promise<void> {
  const u = new URL(svc.url);
  const boundary = "abortlogboundary";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\ngone/away.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="away.bin"\r\n\r\n`;
  return new Promise((resolve) => {
    const req = http.request({
      host: u.hostname,
      port: u.port,
      method: "POST",
      path: "/v0/storage/object/public-assets",
      headers: { "x-api-key": PROCESS_KEY, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(head.length + 4 * 1024 * 1024) },
    });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.write(head);
    req.write(Buffer.alloc(1024 * 1024, 1), () => setTimeout(() => req.destroy(), 300));
  });
}

it("logs a client-aborted upload at info, one line, no stack; nothing at warn or error", async () => {
  const from = log.length;
  await cutUpload();
  expect(await waitFor(() => log.slice(from).includes("aborted by the client"), 5000)).toBe(true);
  // Give a late error line (a stack from a stream) the time to show up.
  await new Promise((r) => setTimeout(r, 500));
  const lines = log
    .slice(from)
    .split("\n")
    .filter((l) => l.trim());
  const entries = lines.map((l) => JSON.parse(l) as { level: number; msg?: string; err?: unknown; stack?: unknown });
  const aborted = entries.filter((e) => e.msg?.includes("aborted by the client"));
  expect(aborted).toHaveLength(1);
  expect(aborted[0].level).toBe(30);
  expect(JSON.stringify(aborted[0])).not.toMatch(/stack|\n\s+at /);
  expect(entries.filter((e) => e.level >= 40)).toEqual([]);
  expect(lines.join("\n")).not.toMatch(/"stack"/);
  // Still serving, and nothing was stored under the key.
  expect((await fetch(`${svc.url}/v0/storage/public/public-assets/gone/away.bin`)).status).toBe(404);
});
