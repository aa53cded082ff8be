/** `npm run dev`: Vite's dev server inside the proxy, with the same /api routes and rules. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBaseboard, type Baseboard } from "./start";
import { raw, type RawUpstream, startRawUpstream } from "../proxy/testing/test-baseboard";

let upstream: RawUpstream;
let board: Baseboard;

beforeAll(async () => {
  upstream = await startRawUpstream((_req, res) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"error":"not_found","subCode":2,"message":"no meta"}');
  });
  board = await startBaseboard({ PORT: "0", BASE_URL: upstream.url, API_KEY: "proxy-key-dev-81" }, { dev: true, log: () => {} });
});
afterAll(async () => {
  await board?.close(1000);
  await upstream?.close();
});

it("serves the app through Vite, with hot reload, and /api as in production", async () => {
  const page = await raw(board.url, "/records/demo/employees", { headers: { accept: "text/html" } });
  expect(page.status).toBe(200);
  expect(page.text).toContain("/@vite/client");
  const client = await raw(board.url, "/@vite/client");
  expect(client.status).toBe(200);
  expect(client.headers["content-type"]).toMatch(/javascript/);
  expect((await raw(board.url, "/api/health")).json()).toEqual({ ok: true, proxy: "up", service: "hosted", restarts: 0 });
  expect((await raw(board.url, "/api/config")).json()).toMatchObject({ upstream: { kind: "hosted" } });
  expect((await raw(board.url, "/api/v0/../admin")).status).toBe(404);
  expect((await raw(board.url, "/", { headers: { host: "evil.example" } })).status).toBe(421);
});
