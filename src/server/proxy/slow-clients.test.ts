/**
 * Issue 9, items 2 and 4 on the proxy: slow clients cannot starve others, bodies that stall or
 * drag on get a 408, and every refusal (413, 408, 431, 414) comes back in the one error shape.
 * Real proxy, real embedded service, raw sockets; timeouts shortened by their variables.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBodySchema } from "../../shared/errors";
import { JSON_BODY_LIMIT, JSON_BODY_TOO_LARGE } from "../../shared/limits";
import { fromApp, raw, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

let board: TestBaseboard;

beforeAll(async () => {
  board = await startTestBaseboard({
    BASEBOARD_HEADERS_TIMEOUT_MS: "1000",
    BASEBOARD_BODY_IDLE_TIMEOUT_MS: "1500",
    BASEBOARD_JSON_BODY_TIMEOUT_MS: "4000",
    SERVICE_MAX_UPLOAD_BYTES: "1000",
    BASEBOARD_LOG_LEVEL: "info",
  });
});
afterAll(async () => {
  await board?.stop();
});

interface Conversation {
  socket: net.Socket;
  /** Everything the proxy sent back so far. */
  answer(): string;
  closed: Promise<void>;
}

function open(head: string): Promise<Conversation> {
  const u = new URL(board.url);
  return new Promise((resolve) => {
    let answer = "";
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(head);
      resolve({ socket, answer: () => answer, closed });
    });
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    socket.on("data", (d) => (answer += d));
    socket.on("error", () => {});
  });
}

function postHead(path: string, length: number | "chunked", type = "application/json"): string {
  const u = new URL(board.url);
  const size = length === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${length}`;
  return `POST ${path} HTTP/1.1\r\nHost: ${u.host}\r\nOrigin: ${board.url}\r\nx-baseboard-client: 1\r\nContent-Type: ${type}\r\n${size}\r\n\r\n`;
}

function parse(answer: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1.1 (\d{3})/.exec(answer)?.[1]);
  const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
  return { status, body: JSON.parse(body) };
}

const UPDATE = "/api/v0/record/demo/employees/update";
const QUERY = "/api/v0/record/demo/employees/query";
const UPLOAD = "/api/v0/storage/object/public-assets";

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await f();
  return { ms: performance.now() - t, value };
}

describe("fair sharing", () => {
  it("answers a file GET and a query in under 1 s while 200 slow-body clients are connected", async () => {
    const drips: Conversation[] = [];
    // 170 record calls and 30 uploads, each dripping one byte every 300 ms.
    for (let i = 0; i < 200; i++) {
      const upload = i % 20 === 0 || i % 20 === 1 || i % 20 === 2;
      drips.push(await open(upload ? postHead(UPLOAD, 500, "multipart/form-data; boundary=x") : postHead(UPDATE, 1000)));
    }
    const timer = setInterval(() => {
      for (const d of drips) d.socket.write("{");
    }, 300);
    try {
      await new Promise((r) => setTimeout(r, 700));
      const file = await timed(() => raw(board.url, "/api/v0/storage/public/public-assets/notes/about.txt"));
      const query = await timed(() =>
        raw(board.url, QUERY, { method: "POST", headers: fromApp(board.url, { "content-type": "application/json" }), body: '{"limit":5}' }),
      );
      expect(file.value.status).toBe(200);
      expect(query.value.status).toBe(200);
      expect(file.ms).toBeLessThan(1000);
      expect(query.ms).toBeLessThan(1000);
      // Still connected and still dripping: none of them was cut to make room.
      expect(drips.filter((d) => d.socket.destroyed).length).toBe(0);
    } finally {
      clearInterval(timer);
      for (const d of drips) d.socket.destroy();
    }
  });
});

describe("timeouts", () => {
  it("answers 408 to a JSON body that stops arriving", async () => {
    const c = await open(postHead(UPDATE, 100) + '{"values":');
    const { ms } = await timed(() => c.closed);
    const { status, body } = parse(c.answer());
    expect(status).toBe(408);
    expect(errorBodySchema.parse(body)).toMatchObject({ error: "request_timeout", subCode: 11 });
    expect(ms).toBeGreaterThan(1200);
    expect(ms).toBeLessThan(4000);
  });

  it("answers 408 to a JSON body that keeps dripping past its deadline", async () => {
    const c = await open(postHead(UPDATE, 100_000));
    const timer = setInterval(() => c.socket.write(" "), 200);
    try {
      const { ms } = await timed(() => c.closed);
      expect(parse(c.answer()).status).toBe(408);
      expect(parse(c.answer()).body).toMatchObject({ error: "request_timeout" });
      expect(ms).toBeGreaterThan(3500);
      expect(ms).toBeLessThan(6000);
    } finally {
      clearInterval(timer);
    }
  });

  it("answers 408 to an upload that stops arriving", async () => {
    const c = await open(postHead(UPLOAD, 900, "multipart/form-data; boundary=x") + "--x\r\n");
    await c.closed;
    const { status, body } = parse(c.answer());
    expect(status).toBe(408);
    expect(errorBodySchema.parse(body).error).toBe("request_timeout");
  });

  it("answers 408 to headers that never finish", async () => {
    const u = new URL(board.url);
    const c = await open(`GET /api/health HTTP/1.1\r\nHost: ${u.host}\r\nx-slow: `);
    await c.closed;
    const { status, body } = parse(c.answer());
    expect(status).toBe(408);
    expect(errorBodySchema.parse(body).error).toBe("request_timeout");
  });

  it("logs a client that breaks off at info level, one line, no stack", async () => {
    const c = await open(postHead(UPDATE, 100) + '{"values":');
    await new Promise((r) => setTimeout(r, 100));
    c.socket.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const lines = board.logs.filter((l) => l.includes("went away"));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => !l.includes("\n") && !/\bat .*:\d+:\d+/.test(l))).toBe(true);
  });
});

describe("statuses", () => {
  it("gives an over-limit JSON body with a Content-Length the service's 413, and lets the browser finish sending", async () => {
    const size = JSON_BODY_LIMIT + 10;
    const c = await open(postHead(UPDATE, size));
    // Like a browser: the whole body goes out whatever comes back meanwhile.
    await new Promise<void>((resolve) => c.socket.write(Buffer.alloc(size, 0x20), () => resolve()));
    await new Promise((r) => setTimeout(r, 200));
    const { status, body } = parse(c.answer());
    expect(status).toBe(413);
    expect(body).toEqual({ error: "payload_too_large", subCode: 6, message: JSON_BODY_TOO_LARGE });
    c.socket.destroy();
  });

  it("gives an over-limit chunked JSON body a 413 too", async () => {
    const c = await open(postHead(QUERY, "chunked"));
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    for (let i = 0; i < 5; i++) c.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    c.socket.write("0\r\n\r\n");
    await new Promise((r) => setTimeout(r, 300));
    expect(parse(c.answer())).toMatchObject({ status: 413, body: { error: "payload_too_large" } });
    c.socket.destroy();
  });

  it("passes the service's 413 for an upload over its limit (never a 502)", async () => {
    const size = 200_000;
    const c = await open(postHead(UPLOAD, size, "multipart/form-data; boundary=x"));
    const part = '--x\r\ncontent-disposition: form-data; name="key"\r\n\r\nbig.bin\r\n--x\r\ncontent-disposition: form-data; name="file"; filename="big.bin"\r\n\r\n';
    c.socket.write(part);
    await new Promise<void>((resolve) => c.socket.write(Buffer.alloc(size - part.length, 1), () => resolve()));
    await new Promise((r) => setTimeout(r, 300));
    expect(parse(c.answer())).toMatchObject({ status: 413, body: { error: "payload_too_large" } });
    c.socket.destroy();
  });

  it("answers over-large headers with 431 and an over-long URL with 414, in the error shape", async () => {
    const u = new URL(board.url);
    const big = await open(`GET /api/health HTTP/1.1\r\nHost: ${u.host}\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`);
    await big.closed;
    expect(parse(big.answer())).toMatchObject({ status: 431, body: { error: "headers_too_large" } });
    const long = await open(`GET /api/${"a".repeat(20_000)} HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`);
    await long.closed;
    expect(parse(long.answer())).toMatchObject({ status: 414, body: { error: "uri_too_long" } });
  });

  it("answers bytes that are not HTTP with 400 in the error shape", async () => {
    const c = await open("HELLO\r\n\r\n");
    await c.closed;
    expect(parse(c.answer())).toMatchObject({ status: 400, body: { error: "validation_error" } });
  });
});
