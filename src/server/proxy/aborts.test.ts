/**
 * A browser that goes away mid-transfer: the proxy passes the abort on to the upstream (so an
 * aborted upload leaves nothing behind there) and keeps serving everyone else.
 */
import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fromApp, raw, type RawUpstream, startRawUpstream, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

let upstream: RawUpstream;
let board: TestBaseboard;
let uploadOutcome: Promise<"complete" | "aborted">;
let downloadOutcome: Promise<"finished" | "closed">;

beforeAll(async () => {
  upstream = await startRawUpstream((req, res) => {
    if (req.url?.startsWith("/v0/storage/object/")) {
      uploadOutcome = new Promise((resolve) => {
        req.on("end", () => resolve("complete"));
        req.on("close", () => resolve(req.complete ? "complete" : "aborted"));
        req.resume();
      });
      return;
    }
    // An endless download: only the browser going away ends it.
    res.writeHead(200, { "content-type": "application/octet-stream" });
    const block = Buffer.alloc(64 * 1024);
    const timer = setInterval(() => res.write(block), 5);
    downloadOutcome = new Promise((resolve) => {
      res.on("finish", () => resolve("finished"));
      res.on("close", () => {
        clearInterval(timer);
        resolve("closed");
      });
    });
  });
  board = await startTestBaseboard({ BASE_URL: upstream.url, API_KEY: "proxy-key-aborts" });
});
afterAll(async () => {
  await board?.stop();
  await upstream?.close();
});

it("passes an aborted upload on to the upstream", async () => {
  const u = new URL(board.url);
  const req = http.request({
    host: u.hostname,
    port: u.port,
    method: "POST",
    path: "/api/v0/storage/object/b",
    headers: fromApp(board.url, { "content-type": "application/octet-stream", "content-length": String(10 * 1024 * 1024) }),
  });
  req.on("error", () => {});
  req.write(Buffer.alloc(1024 * 1024));
  while (!uploadOutcome) await new Promise((r) => setTimeout(r, 10));
  req.destroy();
  expect(await uploadOutcome).toBe("aborted");
  expect((await raw(board.url, "/api/health")).status).toBe(200);
});

it("stops the upstream's answer when the browser leaves mid-download", async () => {
  const u = new URL(board.url);
  await new Promise<void>((resolve, reject) => {
    http
      .get({ host: u.hostname, port: u.port, path: "/api/v0/storage/public/b/endless.bin" }, (res) => {
        let got = 0;
        res.on("data", (c: Buffer) => {
          got += c.length;
          if (got > 512 * 1024) {
            res.destroy();
            resolve();
          }
        });
      })
      .on("error", reject);
  });
  expect(await downloadOutcome).toBe("closed");
  expect((await raw(board.url, "/api/health")).status).toBe(200);
});
