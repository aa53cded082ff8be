/**
 * Issue 9, item 1: no client can take the proxy down. Clients that send half a body and break
 * off, at any moment (waiting for an upstream connection, mid-body, mid-answer), cost only
 * their own request. Real proxy, real embedded service, raw sockets.
 */
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fromApp, raw, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

let board: TestBaseboard;

beforeAll(async () => {
  // Few upload connections, so that most uploads wait for one (where the old crash was).
  board = await startTestBaseboard({ UPSTREAM_UPLOAD_CONNECTIONS: "4" });
});
afterAll(async () => {
  await board?.stop();
});

/** Opens a socket and sends the head of a POST plus the first bytes of its body. */
function halfSentPost(path: string, contentLength: number, start: string, type = "application/json"): Promise<net.Socket> {
  const u = new URL(board.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${u.host}\r\nOrigin: ${board.url}\r\nx-baseboard-client: 1\r\n` +
          `Content-Type: ${type}\r\nContent-Length: ${contentLength}\r\n\r\n${start}`,
      );
      resolve(socket);
    });
    socket.on("error", () => {});
    socket.once("error", reject);
  });
}

async function stillServing() {
  const health = await raw(board.url, "/api/health");
  expect(health.status).toBe(200);
  const query = await raw(board.url, "/api/v0/record/demo/employees/query", {
    method: "POST",
    headers: fromApp(board.url, { "content-type": "application/json" }),
    body: JSON.stringify({ limit: 1 }),
  });
  expect(query.status).toBe(200);
  expect((query.json() as { items: unknown[] }).items).toHaveLength(1);
}

it("survives 128 half-sent POSTs and a 129th broken off (the issue's reproduction)", async () => {
  const path = "/api/v0/record/demo/employees/update";
  const held = await Promise.all(Array.from({ length: 128 }, () => halfSentPost(path, 1000, '{"values":')));
  const last = await halfSentPost(path, 1000, '{"values":');
  await new Promise((r) => setTimeout(r, 1500));
  last.destroy();
  await new Promise((r) => setTimeout(r, 200));
  await stillServing();
  for (const s of held) s.destroy();
  await new Promise((r) => setTimeout(r, 200));
  await stillServing();
});

it("survives 500 half-sent POSTs broken off at random moments", async () => {
  // Deterministic "random" moments so a failure can be replayed.
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const paths = [
    "/api/v0/record/demo/employees/update",
    "/api/v0/record/demo/employees/query",
    "/api/v0/storage/object/public-assets",
  ];
  const runs = Array.from({ length: 500 }, async (_, i) => {
    const path = paths[i % paths.length];
    const isUpload = path.includes("/storage/");
    const socket = isUpload
      ? await halfSentPost(path, 100_000, '--x\r\ncontent-disposition: form-data; name="key"\r\n\r\nhostile.txt\r\n--x\r\n', "multipart/form-data; boundary=x")
      : await halfSentPost(path, 100_000, '{"filter":{"and":[');
    // Some send more before leaving, some leave at once, some after a while.
    if (rand() < 0.5) socket.write("x".repeat(Math.floor(rand() * 50_000)));
    await new Promise((r) => setTimeout(r, rand() * 1500));
    if (rand() < 0.3) socket.resetAndDestroy();
    else socket.destroy();
  });
  await Promise.all(runs);
  await new Promise((r) => setTimeout(r, 300));
  await stillServing();
});

it("survives 200 downloads and resizes broken off mid-answer", async () => {
  const u = new URL(board.url);
  const paths = ["/api/v0/storage/public/public-assets/banners/welcome.jpg", "/api/v0/storage/public/public-assets/catalog/desk.jpg?w=256"];
  await Promise.all(
    Array.from(
      { length: 200 },
      (_, i) =>
        new Promise<void>((resolve) => {
          const socket = net.connect(Number(u.port), u.hostname, () => {
            socket.write(`GET ${paths[i % 2]} HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`);
          });
          socket.on("error", () => {});
          // Leave after the first bytes of the answer, or before any if it is slow to come.
          socket.once("data", () => socket.resetAndDestroy());
          setTimeout(() => socket.destroy(), 50 + (i % 7) * 30);
          socket.once("close", () => resolve());
        }),
    ),
  );
  await new Promise((r) => setTimeout(r, 300));
  await stillServing();
});
