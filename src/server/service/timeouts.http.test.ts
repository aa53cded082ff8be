/**
 * Issue 9, items 2 and 4 on the service itself (a client talking to it directly, as with
 * `npm run service`): slow headers and bodies that stall or drag on get a 408, and what the
 * HTTP parser refuses comes back in the one error shape. Raw sockets against the real service.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBodySchema } from "../../shared/errors";
import { startTestService, type TestService } from "./testing/test-service";

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ limits: { headersTimeoutMs: 1000, bodyIdleMs: 1500, jsonBodyMs: 3000 } });
});
afterAll(async () => {
  await svc?.close();
});

function exchange(head: string, drip?: { every: number; byte: string }): Promise<{ status: number; body: unknown; ms: number }> {
  const u = new URL(svc.url);
  return new Promise((resolve, reject) => {
    let answer = "";
    const t = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(head);
      if (drip) timer = setInterval(() => socket.writable && socket.write(drip.byte), drip.every);
    });
    socket.on("data", (d) => (answer += d));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      const status = Number(/^HTTP\/1.1 (\d{3})/.exec(answer)?.[1]);
      try {
        resolve({ status, body: JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)), ms: performance.now() - t });
      } catch {
        reject(new Error(`no JSON answer: ${JSON.stringify(answer.slice(0, 300))}`));
      }
    });
  });
}

const post = (path: string, length: number, type = "application/json") =>
  `POST ${path} HTTP/1.1\r\nHost: ${new URL(svc.url).host}\r\nx-api-key: ${svc.key}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;

/** An upload over a raw socket, its file part begun: the test sends (or does not send) the rest. */
function startedUpload(name: string) {
  const head = post("/v0/storage/object/public-assets", 100_000, "multipart/form-data; boundary=x");
  const u = new URL(svc.url);
  const socket = net.connect(Number(u.port), u.hostname);
  socket.on("error", () => {});
  let answer = "";
  socket.on("data", (d) => (answer += d));
  const closed = new Promise<number>((r) => socket.once("close", () => r(performance.now())));
  socket.write(`${head}--x\r\ncontent-disposition: form-data; name="key"\r\n\r\n${name}\r\n--x\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\n\r\n`);
  return { socket, closed, answer: () => answer };
}

async function stillServing() {
  const res = await svc.call("/v0/record/demo/employees/query", { json: { limit: 1 } });
  expect(res.status).toBe(200);
}

describe("the service's timeouts", () => {
  it("answers 408 to a JSON body that stops arriving", async () => {
    const r = await exchange(post("/v0/record/demo/employees/update", 100) + '{"values":');
    expect(r.status).toBe(408);
    expect(errorBodySchema.parse(r.body)).toMatchObject({ error: "request_timeout", subCode: 11 });
    expect(r.ms).toBeGreaterThan(1200);
    expect(r.ms).toBeLessThan(4000);
    await stillServing();
  });

  it("answers 408 to a JSON body dripping past its deadline", async () => {
    const r = await exchange(post("/v0/record/demo/employees/query", 100_000), { every: 200, byte: " " });
    expect(r.status).toBe(408);
    expect(r.body).toMatchObject({ error: "request_timeout" });
    expect(r.ms).toBeGreaterThan(2500);
    expect(r.ms).toBeLessThan(5000);
    await stillServing();
  });

  it("lets an upload drip for longer than the JSON deadline, and answers 408 once it stalls", async () => {
    const up = startedUpload("slow.txt");
    const timer = setInterval(() => up.socket.write("a"), 300);
    await new Promise((r) => setTimeout(r, 4000));
    clearInterval(timer);
    expect(up.answer()).toBe("");
    await up.closed;
    expect(up.answer()).toMatch(/^HTTP\/1.1 408/);
    expect(JSON.parse(up.answer().slice(up.answer().indexOf("\r\n\r\n") + 4))).toMatchObject({ error: "request_timeout" });
    await stillServing();
  });

  it("cuts a stalled upload about its idle time after its last byte, not up to twice that (review 31a #6)", async () => {
    const up = startedUpload("stall.txt");
    // Bytes until just after the first look at 1,500 ms, then none.
    let last = performance.now();
    const timer = setInterval(() => {
      up.socket.write("a");
      last = performance.now();
    }, 200);
    await new Promise((r) => setTimeout(r, 1_700));
    clearInterval(timer);
    const stalledFor = (await up.closed) - last;
    expect(up.answer()).toMatch(/^HTTP\/1.1 408/);
    expect(stalledFor).toBeGreaterThan(1_400);
    // Looked at once per idle time, it was cut ~2.9 s after the last byte.
    expect(stalledFor).toBeLessThan(2_300);
  });

  it("answers 408 to headers that never finish", async () => {
    const r = await exchange(`GET /v0/meta HTTP/1.1\r\nHost: ${new URL(svc.url).host}\r\nx-slow: `);
    expect(r.status).toBe(408);
    expect(r.body).toMatchObject({ error: "request_timeout" });
  });
});

describe("the service's framework-level refusals", () => {
  it("answers over-large headers with 431, an over-long URL with 414, and garbage with 400, in the error shape", async () => {
    const host = new URL(svc.url).host;
    const big = await exchange(`GET /v0/meta HTTP/1.1\r\nHost: ${host}\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(big).toMatchObject({ status: 431, body: { error: "headers_too_large" } });
    const long = await exchange(`GET /v0/${"a".repeat(20_000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect(long).toMatchObject({ status: 414, body: { error: "uri_too_long" } });
    const garbage = await exchange("HELLO\r\n\r\n");
    expect(garbage).toMatchObject({ status: 400, body: { error: "validation_error" } });
    await stillServing();
  });

  it("answers an over-limit JSON body with 413 in the error shape", async () => {
    const res = await svc.call("/v0/record/demo/employees/query", { json: { pad: "x".repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(errorBodySchema.parse(await res.json()).error).toBe("payload_too_large");
  });
});
