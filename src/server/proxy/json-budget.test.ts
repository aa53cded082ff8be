/**
 * Many slow clients cannot make the proxy hold unbounded memory: record-call bodies still
 * arriving share one byte budget, past which a client gets 503 with Retry-After; bytes go back
 * to the budget when a body is done or its client leaves.
 */
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fromApp, raw, startTestBaseboard, type TestBaseboard } from "./test-helpers";

let board: TestBaseboard;

beforeAll(async () => {
  board = await startTestBaseboard({ BASEBOARD_JSON_BUFFER_BYTES: "300000" });
});
afterAll(async () => {
  await board?.stop();
});

function slowPost(length: number, first: number): Promise<{ socket: net.Socket; answer: () => string; closed: Promise<void> }> {
  const u = new URL(board.url);
  return new Promise((resolve) => {
    let answer = "";
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(
        `POST /api/v0/record/demo/employees/query HTTP/1.1\r\nHost: ${u.host}\r\nOrigin: ${board.url}\r\nx-baseboard-client: 1\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${" ".repeat(first)}`,
      );
      resolve({ socket, answer: () => answer, closed });
    });
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    socket.on("data", (d) => (answer += d));
    socket.on("error", () => {});
  });
}

it("refuses a body past the shared budget with 503 and Retry-After, and frees the budget when a client leaves", async () => {
  const a = await slowPost(900_000, 250_000);
  await new Promise((r) => setTimeout(r, 300));
  const b = await slowPost(200_000, 100_000);
  await b.closed;
  expect(b.answer()).toMatch(/^HTTP\/1.1 503/);
  expect(b.answer()).toMatch(/retry-after: 1/i);
  expect(JSON.parse(b.answer().slice(b.answer().indexOf("\r\n\r\n") + 4))).toMatchObject({ error: "unavailable", subCode: 12 });
  a.socket.destroy();
  await a.closed;
  await new Promise((r) => setTimeout(r, 100));
  // The 250,000 bytes are back: a 200 KB body fits again.
  const ok = await raw(board.url, "/api/v0/record/demo/employees/query", {
    method: "POST",
    headers: fromApp(board.url, { "content-type": "application/json" }),
    body: `{"limit":1}${" ".repeat(200_000)}`,
  });
  expect(ok.status).toBe(200);
});
