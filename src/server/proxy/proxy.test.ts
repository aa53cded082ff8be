/**
 * The proxy in front of the real local service, both started here over real HTTP: the CSRF and
 * rebinding rules, the allow list, the key handling, /api/config and the app's files.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromApp, raw, type RawInit, type RawResponse, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

const KEY = "proxy-key-4b1d0e8a2c6f";
/** A second key the service accepts, scoped to another table: if the upstream ever saw it, answers would differ. */
const SCOPED = "scoped-key-91c5e7a3d2";

let board: TestBaseboard;
const answers: RawResponse[] = [];
async function call(pathname: string, init: RawInit = {}): Promise<RawResponse> {
  const res = await raw(board.url, pathname, init);
  answers.push(res);
  return res;
}
function direct(pathname: string, json?: unknown, key = KEY): Promise<Response> {
  return fetch(board.serviceUrl + pathname, {
    method: json === undefined ? "GET" : "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}
const salaryOf = async (id: string) => {
  const res = await direct("/v0/record/demo/employees/query", { filter: { and: [{ key: "employee_id", operator: "equal", value: id }] } });
  return ((await res.json()) as { items: { annual_salary: number }[] }).items[0].annual_salary;
};

beforeAll(async () => {
  board = await startTestBaseboard({ API_KEY: KEY, SERVICE_API_KEYS: `${SCOPED}@demo/departments` });
});
afterAll(async () => {
  await board?.stop();
});

describe("the app's own requests", () => {
  it("answers /api/health", async () => {
    const res = await call("/api/health");
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ ok: true, proxy: "up", service: "up", restarts: 0 });
  });

  it("describes the local upstream in /api/config from its meta", async () => {
    const res = await call("/api/config");
    expect(res.status).toBe(200);
    const cfg = res.json() as { databases: { id: string; tables: { slug: string }[] }[]; capabilities: Record<string, unknown>; upstream: unknown };
    expect(cfg.upstream).toMatchObject({ kind: "local" });
    expect(cfg.capabilities).toMatchObject({ meta: true, fields: true, list: true, delete: true, expiresIn: true, import: true });
    expect(cfg.capabilities.operators).toContain("contains");
    expect(cfg.databases.find((d) => d.id === "demo")?.tables.map((t) => t.slug)).toEqual(expect.arrayContaining(["employees", "departments"]));
  });

  it("forwards a query and gives the same answer as the service", async () => {
    const body = { filter: { and: [{ key: "department", operator: "equal", value: "Engineering" }] }, sort: [{ key: "employee_id", direction: "ascending" }], limit: 5 };
    const res = await call("/api/v0/record/demo/employees/query", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": "application/json", "client-type": "widget" }),
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual(await (await direct("/v0/record/demo/employees/query", body)).json());
  });

  it("forwards an update with its x-matched-count", async () => {
    const res = await call("/api/v0/record/demo/employees/update", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": "application/json" }),
      body: JSON.stringify({ values: [{ key: "annual_salary", value: 123456 }], filter: { and: [{ key: "employee_id", operator: "equal", value: "E00002" }] } }),
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ message: "ok" });
    expect(res.headers["x-matched-count"]).toBe("1");
    expect(await salaryOf("E00002")).toBe(123456);
  });

  it("drops a key the browser sent: the upstream only ever sees the proxy's", async () => {
    // The service itself answers differently to the scoped key ...
    expect((await direct("/v0/record/demo/employees/query", { limit: 1 }, SCOPED)).status).toBe(403);
    // ... so a 200 here means the browser's key never reached it.
    const res = await call("/api/v0/record/demo/employees/query", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": "application/json", "x-api-key": SCOPED }),
      body: JSON.stringify({ limit: 1 }),
    });
    expect(res.status).toBe(200);
    const meta = await call("/api/v0/meta", { headers: { "x-api-key": SCOPED } });
    const tables = (meta.json() as { databases: { tables: { slug: string }[] }[] }).databases.flatMap((d) => d.tables.map((t) => t.slug));
    expect(tables).toContain("employees");
  });
});

describe("CSRF", () => {
  const update = (headers: Record<string, string>) =>
    call("/api/v0/record/demo/employees/update", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ values: [{ key: "annual_salary", value: 1 }], filter: { and: [{ key: "employee_id", operator: "equal", value: "E00001" }] } }),
    });

  it.each([
    ["a forged Origin", { origin: "http://evil.example", "x-baseboard-client": "1" }],
    ["another port of ours", { origin: "http://127.0.0.1:1", "x-baseboard-client": "1" }],
    ["Origin null", { origin: "null", "x-baseboard-client": "1" }],
    ["no Origin from a browser", { "x-baseboard-client": "1", "sec-fetch-site": "same-origin" }],
    ["no Origin and a cross-site fetch metadata", { "sec-fetch-site": "cross-site" }],
    ["our Origin without our header (a cross-site form cannot add it)", { origin: "ORIGIN" }],
    ["a cross-site fetch metadata", { origin: "ORIGIN", "x-baseboard-client": "1", "sec-fetch-site": "cross-site" }],
    ["a malformed Origin", { origin: "http://[::1", "x-baseboard-client": "1" }],
  ])("refuses an update with %s and changes nothing", async (_name, headers) => {
    const before = await salaryOf("E00001");
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === "ORIGIN" ? board.url : v]));
    const res = await update(h);
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ error: "forbidden", subCode: 3 });
    expect(await salaryOf("E00001")).toBe(before);
  });

  it("sends no CORS headers, even to a preflight", async () => {
    const pre = await call("/api/v0/record/demo/employees/query", {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST", "access-control-request-headers": "x-baseboard-client" },
    });
    expect(pre.status).toBeGreaterThanOrEqual(400);
    const get = await call("/api/config", { headers: { origin: "http://evil.example" } });
    for (const res of [pre, get]) expect(Object.keys(res.headers).filter((h) => h.startsWith("access-control"))).toEqual([]);
    expect(get.headers["cross-origin-resource-policy"]).toBe("same-origin");
  });
});

describe("Host (DNS rebinding)", () => {
  it("refuses a Host that is not its own", async () => {
    const port = new URL(board.url).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1.nip.io:${port}`, "127.0.0.1:1"]) {
      for (const path of ["/api/config", "/api/v0/meta", "/"]) {
        const res = await call(path, { headers: { host } });
        expect(res.status).toBe(421);
        expect(res.json()).toMatchObject({ error: "forbidden" });
      }
    }
    expect((await call("/api/health", { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  it("survives malformed Host headers and request lines", async () => {
    const u = new URL(board.url);
    const rawRequests = [
      "GET /api/config HTTP/1.1\r\nHost: \x7f\x7f\r\n\r\n",
      "GET /api/config HTTP/1.1\r\nHost: a b c\r\n\r\n",
      `GET /api/config HTTP/1.1\r\nHost: ${u.host}\r\nHost: evil.example\r\n\r\n`,
      "GET /api/config HTTP/1.1\r\n\r\n",
      "GET /api/config HTTP/1.0\r\n\r\n",
      `GET http://evil.example/api/config HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`,
      `GET /api/config HTTP/1.1\r\nHost: [${"f".repeat(4000)}]\r\n\r\n`,
      `POST /api/v0/record/demo/employees/update HTTP/1.1\r\nHost: ${u.host}\r\nOrigin: \xff\xfe\r\nx-baseboard-client: 1\r\nContent-Length: 2\r\n\r\n{}`,
      `POST /api/v0/record/demo/employees/update HTTP/1.1\r\nHost: ${u.host}\r\nOrigin: ${board.url}\r\nOrigin: ${board.url}\r\nx-baseboard-client: 1\r\nContent-Length: 2\r\n\r\n{}`,
    ];
    for (const text of rawRequests) {
      const reply = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(u.port), u.hostname);
        let data = "";
        // Not end(): Node drops the answer to a half-closed connection.
        socket.on("data", (d) => {
          data += d.toString("latin1");
          if (data.includes("\r\n\r\n")) socket.destroy();
        });
        socket.on("close", () => resolve(data));
        socket.on("error", () => resolve(data));
        socket.setTimeout(3000, () => socket.destroy());
        socket.write(Buffer.from(text, "latin1"));
      });
      const status = Number(reply.split(" ")[1]);
      expect(status, text).toBeGreaterThanOrEqual(400);
      expect(reply).not.toContain(KEY);
    }
    expect((await call("/api/health")).status).toBe(200);
  });
});

describe("the allow list", () => {
  it.each([
    ["GET", "/api/v0/../admin"],
    ["GET", "/api/v0/storage%2f.."],
    ["GET", "/api/v0/storage%2F..%2F..%2Fapi-key"],
    ["GET", "/api/v1/meta"],
    ["POST", "/api/v1/record/demo/employees/query"],
    ["GET", "/api/v0/record/demo/employees/query"],
    ["PUT", "/api/v0/storage/object/public-assets/x"],
    ["GET", "/api/"],
  ])("%s %s → 404 in the error shape", async (method, path) => {
    const res = await call(path, { method, headers: fromApp(board.url) });
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ error: "not_found", subCode: 2 });
    // A path that exists under another method says which, as the service does (review 38a #7).
    const allow: Record<string, string> = { "/api/v0/record/demo/employees/query": "POST", "/api/v0/storage/object/public-assets/x": "DELETE" };
    expect(res.headers.allow).toBe(allow[path]);
  });

  // A file key climbing out of its bucket: the service's 400 for a . or .. folder (review 57a
  // #6: "No endpoint" for a documented one), and nothing forwarded.
  it.each([
    ["GET", "/api/v0/storage/public/public-assets/..%2f..%2fapi-key"],
    ["GET", "/api/v0/storage/public/public-assets/%2e%2e/%2e%2e/api-key"],
  ])("%s %s → 400 naming the .. folder, in the error shape", async (method, path) => {
    const res = await call(path, { method, headers: fromApp(board.url) });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ error: "validation_error", message: 'The object key has a ".." segment; folder names cannot be . or ..' });
  });
});

describe("the app's files", () => {
  it("serves the index, falls back to it for app routes, caches hashed assets", async () => {
    const index = await call("/", { headers: { accept: "text/html" } });
    expect(index.status).toBe(200);
    expect(index.text).toContain("Baseboard test");
    expect(index.headers["x-frame-options"]).toBe("DENY");
    expect(index.headers["content-security-policy"]).toContain("script-src 'self'");
    const route = await call("/records/demo/employees?page=2", { headers: { accept: "text/html,*/*" } });
    expect(route.text).toContain("Baseboard test");
    expect(route.headers["cache-control"]).toBe("no-cache");
    const asset = await call("/assets/app-abc123.js");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.headers["content-type"]).toMatch(/javascript/);
    expect((await call("/assets/missing.js", { headers: { accept: "text/html" } })).status).toBe(404);
    expect((await call("/..%2f..%2f..%2fetc%2fpasswd")).status).toBe(404);
    expect((await call("/", { method: "POST" })).status).toBe(405);
    // An API path in capitals is no page: a 404 in the API's error shape.
    const upper = await call("/API/v0/record/demo/employees/query", { method: "POST" });
    expect(upper.status).toBe(404);
    expect(JSON.parse(upper.text)).toMatchObject({ error: "not_found", message: expect.stringMatching(/lower case, under \/api\//) });
  });
});

describe("the key", () => {
  it("appears in no answer and no log line", async () => {
    expect(answers.length).toBeGreaterThan(30);
    for (const res of answers) {
      expect(res.text).not.toContain(KEY);
      expect(JSON.stringify(res.headers)).not.toContain(KEY);
    }
    expect(board.logs.join("\n")).not.toContain(KEY);
  });
});
