/**
 * The body idle timeout counts only the client's silence: an upstream that stops reading an
 * upload for longer than the timeout (a busy disk) must not turn it into a 408.
 */
import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fromApp, type RawUpstream, startRawUpstream, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

let upstream: RawUpstream;
let board: TestBaseboard;

beforeAll(async () => {
  upstream = await startRawUpstream((req, res) => {
    // Take the first bytes, then stop reading for 2.5 s (the idle timeout is 1 s), then read on.
    let total = 0;
    req.once("data", (c: Buffer) => {
      total += c.length;
      req.pause();
      setTimeout(() => {
        req.on("data", (d: Buffer) => (total += d.length));
        req.resume();
      }, 2500);
    });
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ received: total }));
    });
  });
  board = await startTestBaseboard({ BASE_URL: upstream.url, API_KEY: "k-slow-upstream", BASEBOARD_BODY_IDLE_TIMEOUT_MS: "1000" });
});
afterAll(async () => {
  await board?.stop();
  await upstream?.close();
});

it("does not cut an upload while the upstream is the one not reading", async () => {
  const size = 16 * 1024 * 1024;
  const u = new URL(board.url);
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method: "POST",
        path: "/api/v0/storage/object/b",
        headers: fromApp(board.url, { "content-type": "application/octet-stream", "content-length": String(size) }),
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(Buffer.alloc(size, 3));
  });
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.text)).toEqual({ received: size });
});
