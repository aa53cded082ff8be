/**
 * Signed session cookies across proxies: a login on one proxy is a session on another with the
 * same BASEBOARD_SESSION_SECRET (or the same data directory, where the secret is generated with
 * mode 0600), survives a restart of the proxy, and means nothing to a proxy with another secret.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Baseboard, startBaseboard } from "../launcher/start";
import { makeDist, raw, type RawUpstream, startRawUpstream } from "./testing/test-baseboard";

const PASSWORD = "hunter2 but longer";
let dir: string;
let upstream: RawUpstream;
const boards: Baseboard[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-sessions-"));
  makeDist(dir);
  upstream = await startRawUpstream((_req, res) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"error":"not_found","subCode":2,"message":"no meta"}');
  });
});
afterAll(async () => {
  for (const b of boards) await b.close(500);
  await upstream?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function proxy(env: Record<string, string>): Promise<Baseboard> {
  const board = await startBaseboard(
    { PORT: "0", BASE_URL: upstream.url, API_KEY: "k-sessions", BASEBOARD_PASSWORD: PASSWORD, BASEBOARD_DIST: path.join(dir, "dist"), DATA_DIR: path.join(dir, "data"), ...env },
    { log: () => {} },
  );
  boards.push(board);
  return board;
}

async function login(board: Baseboard): Promise<string> {
  const res = await raw(board.url, "/login", {
    method: "POST",
    headers: { origin: board.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ password: PASSWORD, next: "/" }).toString(),
  });
  expect(res.status).toBe(303);
  return (res.headers["set-cookie"]?.[0] ?? "").split(";")[0];
}
const page = (board: Baseboard, cookie: string) => raw(board.url, "/", { headers: { cookie, accept: "text/html" } }).then((r) => r.status);

it("a session made on one proxy works on another with the same secret, and not with another secret", async () => {
  const secret = "a-shared-session-secret-of-32-chars!";
  const a = await proxy({ BASEBOARD_SESSION_SECRET: secret, DATA_DIR: path.join(dir, "a") });
  const b = await proxy({ BASEBOARD_SESSION_SECRET: secret, DATA_DIR: path.join(dir, "b") });
  const c = await proxy({ BASEBOARD_SESSION_SECRET: "another-secret-that-is-32-chars-long", DATA_DIR: path.join(dir, "c") });
  const cookie = await login(a);
  expect(await page(a, cookie)).toBe(200);
  expect(await page(b, cookie)).toBe(200);
  expect(await page(c, cookie)).toBe(303);
  expect((await raw(c.url, "/api/config", { headers: { cookie } })).status).toBe(401);
  // The variable wins: nothing is written into the data directory.
  expect(fs.existsSync(path.join(dir, "a", "session-secret"))).toBe(false);
});

it("generates the secret into DATA_DIR (mode 0600) when unset: sessions survive a restart", async () => {
  const first = await proxy({});
  const cookie = await login(first);
  const file = path.join(dir, "data", "session-secret");
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.readFileSync(file, "utf8").trim().length).toBeGreaterThanOrEqual(32);
  await first.close(500);
  const second = await proxy({});
  expect(await page(second, cookie)).toBe(200);
  expect(await page(second, "bb_session=forged.token.value")).toBe(303);
});

it("refuses a secret too short to be one", async () => {
  await expect(proxy({ BASEBOARD_SESSION_SECRET: "short" })).rejects.toThrow(/at least 32 characters/);
});
