/**
 * An upstream that answers before the upload ends (a 413 for a file over the limit): the proxy
 * passes the answer on at once AND reads and drops the rest of the browser's body, because a
 * browser shows no answer until it has sent its whole body. Without that the upload freezes
 * until some timer cuts the connection.
 */
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RawUpstream, startRawUpstream, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

let upstream: RawUpstream;
let board: TestBaseboard;

beforeAll(async () => {
  // Answers on the headers alone and never reads the body: the worst an upstream can do.
  upstream = await startRawUpstream((_req, res) => {
    res.writeHead(413, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "payload_too_large", subCode: 6, message: "too large" }));
  });
  board = await startTestBaseboard({ BASE_URL: upstream.url, API_KEY: "proxy-key-early" });
});
afterAll(async () => {
  await board?.stop();
  await upstream?.close();
});

it("answers an oversized upload at once and lets the browser finish sending", async () => {
  const { port, host } = new URL(board.url);
  const size = 32 * 1024 * 1024;
  const socket = net.connect(Number(port), new URL(board.url).hostname);
  let answer = "";
  socket.on("data", (d) => (answer += d));
  const closed = new Promise<void>((r) => socket.on("close", () => r()));
  socket.on("error", () => {});
  socket.write(
    `POST /api/v0/storage/object/public-assets HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${board.url}\r\n` +
      `x-baseboard-client: 1\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${size}\r\n\r\n`,
  );
  // Like a browser: send the whole body, whatever comes back meanwhile.
  const block = Buffer.alloc(64 * 1024, 7);
  const bodySent = new Promise<"sent" | "cut">((resolve) => {
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += block.length;
        const last = sent >= size;
        const ok = socket.write(block, (err) => last && resolve(err ? "cut" : "sent"));
        if (!ok && !last) return void socket.once("drain", pump);
      }
    };
    socket.once("close", () => resolve("cut"));
    pump();
  });
  expect(await bodySent).toBe("sent");
  expect(answer).toMatch(/^HTTP\/1.1 413/);
  expect(answer).toContain('"payload_too_large"');
  socket.destroy();
  await closed;
});
