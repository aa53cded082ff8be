/**
 * Browsers that stop reading their answer cannot starve the others: each would hold one of the
 * lane's upstream connections (backpressure pauses the upstream too), so the proxy cuts a
 * browser that takes nothing for BASEBOARD_SEND_IDLE_TIMEOUT_MS. One that reads slowly but
 * steadily keeps its download. Real proxy, real embedded service, raw sockets.
 */
import net from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fromApp, raw, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

const SIZE = 64 * 1024 * 1024;
let board: TestBaseboard;
let bigPath = "";
/** The same stack with a longer idle bound, for the steady slow reader (timers run late under load). */
let patient: TestBaseboard;
let patientPath = "";

beforeAll(async () => {
  board = await startTestBaseboard({ UPSTREAM_FILE_CONNECTIONS: "2", BASEBOARD_SEND_IDLE_TIMEOUT_MS: "700", BASEBOARD_LOG_LEVEL: "info" });
  bigPath = await uploadBig(board);
  patient = await startTestBaseboard({ UPSTREAM_FILE_CONNECTIONS: "2", BASEBOARD_SEND_IDLE_TIMEOUT_MS: "1500", BASEBOARD_LOG_LEVEL: "info" });
  patientPath = await uploadBig(patient);
}, 120_000);
afterAll(async () => {
  await board?.stop();
  await patient?.stop();
});

async function uploadBig(board: TestBaseboard): Promise<string> {
  // A file far larger than every socket buffer between the service and a browser.
  const boundary = "----bbslowread";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\nbig/slow.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const block = Buffer.alloc(1024 * 1024, 7);
  async function* parts() {
    yield Buffer.from(head);
    for (let i = 0; i < SIZE / block.length; i++) yield block;
    yield Buffer.from(tail);
  }
  const up = await raw(board.url, "/api/v0/storage/object/public-assets", {
    method: "POST",
    headers: fromApp(board.url, { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(head.length + SIZE + tail.length) }),
    body: Readable.from(parts()),
  });
  expect(up.status, up.text).toBe(200);
  return `/api/v0/storage/public/public-assets/${(up.json() as { key: string }).key}`;
}

/** A GET whose answer is never read: the socket is paused from the start. */
function neverReads(path: string): Promise<{ socket: net.Socket; closed: Promise<void>; received(): number }> {
  const u = new URL(board.url);
  return new Promise((resolve) => {
    let received = 0;
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`);
      resolve({ socket, closed, received: () => received });
    });
    socket.pause();
    socket.on("data", (d: Buffer) => (received += d.length));
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    socket.on("error", () => {});
  });
}

it("cuts browsers that stop reading, so a file GET still answers", async () => {
  // Four stuck downloads for two file connections: two hold them, two wait in line.
  const stuck = await Promise.all(Array.from({ length: 4 }, () => neverReads(bigPath)));
  try {
    await new Promise((r) => setTimeout(r, 300));
    const t = performance.now();
    const small = await raw(board.url, "/api/v0/storage/public/public-assets/notes/about.txt");
    expect(small.status).toBe(200);
    expect(performance.now() - t).toBeLessThan(4000);
    // Each is cut, the two that waited in line once their turn came and they too stopped reading
    // (on a loaded machine that can be after the small GET): wait for all four cuts.
    const cuts = () => board.logs.filter((l) => /client stopped reading GET \/api\/v0\/storage\/public/.test(l)).length;
    for (const deadline = Date.now() + 20_000; cuts() < stuck.length && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
    // Once it reads again each gets the bytes already sent, then the end, far short of the file.
    for (const s of stuck) s.socket.resume();
    await Promise.all(stuck.map((s) => s.closed));
    for (const s of stuck) expect(s.received()).toBeLessThan(SIZE);
    expect(board.logs.filter((l) => /client stopped reading GET \/api\/v0\/storage\/public/.test(l)).length).toBeGreaterThanOrEqual(2);
    expect(board.logs.join("\n")).not.toMatch(/\n\s+at /);
  } finally {
    for (const s of stuck) s.socket.destroy();
  }
}, 20_000);

it("does not cut a browser that reads slowly but steadily", async () => {
  const u = new URL(patient.url);
  let received = 0;
  let receivedWhileSlow = 0;
  let closedEarly = false;
  await new Promise<void>((resolve) => {
    const socket = net.connect(Number(u.port), u.hostname, () => socket.write(`GET ${patientPath} HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`));
    socket.on("error", () => {});
    // Reads in short bursts every 300 ms (a fifth of the 1.5 s idle bound: timers late under load
    // still make it) for 4.5 s, then takes the rest.
    const slow = setInterval(() => {
      socket.resume();
      setTimeout(() => socket.pause(), 2);
    }, 300);
    socket.pause();
    socket.on("data", (d: Buffer) => (received += d.length));
    setTimeout(() => {
      clearInterval(slow);
      receivedWhileSlow = received;
      socket.resume();
    }, 4500);
    socket.once("close", () => {
      closedEarly = received < SIZE;
      clearInterval(slow);
      resolve();
    });
    socket.on("data", () => {
      if (received >= SIZE) socket.end();
    });
  });
  // Still mid-download after the slow phase (three idle periods long), yet never cut.
  expect(receivedWhileSlow).toBeLessThan(SIZE);
  expect(closedEarly).toBe(false);
  expect(received).toBeGreaterThanOrEqual(SIZE);
}, 60_000);
