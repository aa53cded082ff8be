/**
 * Many slow clients cannot make the proxy hold unbounded memory: record-call bodies still
 * arriving or waiting for an upstream connection share one byte budget, past which a client gets
 * 503 with Retry-After; bytes go back to the budget when a body has gone upstream or its client leaves.
 */
import type http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromApp, raw, type RawUpstream, startRawUpstream, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

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

describe("bodies waiting for an upstream connection", () => {
  let upstream: RawUpstream;
  let queued: TestBaseboard;
  const held: http.ServerResponse[] = [];

  beforeAll(async () => {
    // Holds every query until told to answer: its one connection stays busy.
    upstream = await startRawUpstream((req, res) => {
      req.resume();
      req.on("end", () => held.push(res));
    });
    queued = await startTestBaseboard({ BASE_URL: upstream.url, API_KEY: "budget-key-3c1d", UPSTREAM_CONNECTIONS: "1", BASEBOARD_JSON_BUFFER_BYTES: "300000" });
  });
  afterAll(async () => {
    await queued?.stop();
    await upstream?.close();
  });

  const post = (body: string) =>
    raw(queued.url, "/api/v0/record/demo/employees/query", {
      method: "POST",
      headers: fromApp(queued.url, { "content-type": "application/json" }),
      body,
    });
  const answerHeld = () => {
    for (const res of held.splice(0)) res.end('{"items":[]}');
  };

  it("stay counted until they have gone upstream", async () => {
    const first = post('{"limit":1}');
    while (held.length === 0) await new Promise((r) => setTimeout(r, 20));
    // Whole, but waiting for the one busy connection: its 200,000 bytes are still held.
    const waiting = post(`{"limit":1}${" ".repeat(200_000)}`);
    await new Promise((r) => setTimeout(r, 300));
    const refused = await post(`{"limit":1}${" ".repeat(200_000)}`);
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    answerHeld();
    expect((await first).status).toBe(200);
    while (held.length === 0) await new Promise((r) => setTimeout(r, 20));
    answerHeld();
    expect((await waiting).status).toBe(200);
    // Both are done: the budget is whole again.
    const again = post(`{"limit":1}${" ".repeat(250_000)}`);
    while (held.length === 0) await new Promise((r) => setTimeout(r, 20));
    answerHeld();
    expect((await again).status).toBe(200);
  });
});
