/**
 * Black-box conformance of the proxy, written from decisions §6 and §8 alone: a real Baseboard
 * (proxy + embedded service) and, where what reaches the upstream matters, a scripted upstream.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppConfig } from "../../shared/meta";
import { multipart } from "../service/storage/testing/storage-service";
import { type RawResponse, type RawUpstream, type TestBaseboard, fromApp, raw, startRawUpstream, startTestBaseboard } from "./testing/test-baseboard";

const KEY = "conformance-proxy-key-5f1e";

function expectErrorShape(res: RawResponse, status: number, error?: string) {
  expect(res.status, res.text).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "message", "subCode"]);
  expect(Number.isInteger(body.subCode)).toBe(true);
  if (error) expect(body.error).toBe(error);
}

function expectNoCors(res: RawResponse) {
  expect(Object.keys(res.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
}

function expectNoKey(res: RawResponse) {
  expect(res.text).not.toContain(KEY);
  expect(JSON.stringify(res.headers)).not.toContain(KEY);
}

describe("proxy in front of the local service", () => {
  let board: TestBaseboard;
  let host: string;
  beforeAll(async () => {
    board = await startTestBaseboard({ API_KEY: KEY });
    host = new URL(board.url).host;
  });
  afterAll(() => board?.stop());

  it("GET /api/config: tables, buckets and capabilities, and never the key", async () => {
    const res = await raw(board.url, "/api/config", { headers: fromApp(board.url) });
    expect(res.status).toBe(200);
    expectNoKey(res);
    const config = res.json() as AppConfig;
    const demo = config.databases.find((d) => d.id === "demo");
    expect(demo?.tables.map((t) => t.slug).sort()).toEqual(["catalog", "departments", "employees"]);
    expect(demo?.tables.find((t) => t.slug === "employees")?.primaryKey).toBe("employee_id");
    expect(config.buckets).toEqual(
      expect.arrayContaining([
        { name: "public-assets", permission: "public", access: ["read", "create", "update"] },
        { name: "team-files", permission: "limitedPublic", access: ["read", "create", "update"] },
        { name: "vault", permission: "forbidden", access: [] },
      ]),
    );
    expect(config.capabilities).toMatchObject({ fields: true, meta: true, list: true, delete: true });
    expect(config.capabilities.operators).toEqual(expect.arrayContaining(["equal", "notEqual", "contains", "isEmpty"]));
  });

  it("forwards the interface's endpoints with the key added, whatever key the browser sent", async () => {
    const query = await raw(board.url, "/api/v0/record/demo/employees/query", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": "application/json", "x-api-key": "browser-sent-wrong-key", "client-type": "widget" }),
      body: JSON.stringify({ limit: 2 }),
    });
    expect(query.status).toBe(200);
    expect((query.json() as { items: unknown[]; count: number }).items).toHaveLength(2);
    expectNoKey(query);

    const form = multipart([{ name: "key", value: "proxy-conf/a.txt" }, { name: "file", value: "0123456789", filename: "a.txt", type: "text/plain" }]);
    const up = await raw(board.url, "/api/v0/storage/object/public-assets", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": form.contentType }),
      body: form.body,
    });
    expect(up.status, up.text).toBeLessThan(300);
    const { key } = up.json() as { key: string };
    expect(key).toMatch(/^v\d+\/proxy-conf\/a\.txt$/);

    const file = await raw(board.url, `/api/v0/storage/public/public-assets/${key}`, { headers: { range: "bytes=2-4" } });
    expect(file.status).toBe(206);
    expect(file.text).toBe("234");
    expect(file.headers["content-range"]).toBe("bytes 2-4/10");
    expect(file.headers["accept-ranges"]).toBe("bytes");
    expect(file.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(file.headers["cross-origin-resource-policy"]).toBe("same-origin");
    const etag = file.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await raw(board.url, `/api/v0/storage/public/public-assets/${key}`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    const head = await raw(board.url, `/api/v0/storage/public/public-assets/${key}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe("10");

    const signed = await raw(board.url, `/api/v0/storage/url/sign/public-assets/${key}`, { headers: fromApp(board.url) });
    expect(signed.status).toBe(200);
    const url = new URL((signed.json() as { url: string }).url);
    expect(url.pathname).toBe(`/api/v0/storage/sign/public-assets/${key}`);
    const viaSigned = await raw(board.url, `${url.pathname}${url.search}`);
    expect(viaSigned.text).toBe("0123456789");

    const odd = multipart([{ name: "key", value: "proxy-conf/Invoice%20 2024 é.txt" }, { name: "file", value: "odd", filename: "i.txt" }]);
    const oddUp = await raw(board.url, "/api/v0/storage/object/public-assets", { method: "POST", headers: fromApp(board.url, { "content-type": odd.contentType }), body: odd.body });
    expect(oddUp.status, oddUp.text).toBe(200);
    const oddGet = await raw(board.url, `/api/v0/storage/public/public-assets/proxy-conf/${encodeURIComponent("Invoice%20 2024 é.txt")}`);
    expect(oddGet.text).toBe("odd");

    const listed = await raw(board.url, "/api/v0/storage/list/public-assets?prefix=proxy-conf/", { headers: fromApp(board.url) });
    expect((listed.json() as { items: { key: string }[] }).items.map((i) => i.key)).toEqual(["proxy-conf/Invoice%20 2024 é.txt", "proxy-conf/a.txt"]);
    const del = await raw(board.url, "/api/v0/storage/object/public-assets/proxy-conf/a.txt", { method: "DELETE", headers: fromApp(board.url) });
    expect(del.status).toBe(200);
  });

  it("a client that is not a browser (no Origin, no Sec-Fetch-Site) can use every endpoint, like curl", async () => {
    const query = await raw(board.url, "/api/v0/record/demo/employees/query", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ limit: 1, select: ["employee_id"] }),
    });
    expect(query.status, query.text).toBe(200);
    const form = multipart([{ name: "key", value: "proxy-conf/curl.txt" }, { name: "file", value: "c", filename: "c.txt" }]);
    const up = await raw(board.url, "/api/v0/storage/object/public-assets", { method: "POST", headers: { "content-type": form.contentType }, body: form.body });
    expect(up.status, up.text).toBe(200);
    const del = await raw(board.url, "/api/v0/storage/object/public-assets/proxy-conf/curl.txt", { method: "DELETE" });
    expect(del.status, del.text).toBe(200);
  });

  it("passes w and h through, as query parameters and as request headers", async () => {
    const png = await sharp({ create: { width: 120, height: 60, channels: 3, background: "#cc3366" } }).png().toBuffer();
    const form = multipart([{ name: "key", value: "proxy-conf/pic.png" }, { name: "file", value: png, filename: "pic.png", type: "image/png" }]);
    const up = await raw(board.url, "/api/v0/storage/object/public-assets", { method: "POST", headers: fromApp(board.url, { "content-type": form.contentType }), body: form.body });
    const { key } = up.json() as { key: string };
    for (const [p, headers] of [[`/api/v0/storage/public/public-assets/${key}?w=30`, {}], [`/api/v0/storage/public/public-assets/${key}`, { w: "30" }]] as const) {
      const res = await raw(board.url, p, { headers });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("image/png");
      const meta = await sharp(res.body).metadata();
      expect([meta.width, meta.height]).toEqual([30, 15]);
    }
    expectErrorShape(await raw(board.url, `/api/v0/storage/public/public-assets/${key}?w=0`), 400, "validation_error");
  });

  it("refuses a Host that is not its own, and survives malformed ones", async () => {
    for (const h of ["evil.example", `evil.example:${host.split(":")[1]}`, "127.0.0.1.nip.io", "[::1", "a b", ""]) {
      const res = await raw(board.url, "/api/v0/meta", { headers: { host: h } });
      expect(res.status, h).toBeGreaterThanOrEqual(400);
      expect(res.status, h).toBeLessThan(500);
      expectNoKey(res);
    }
    expect((await raw(board.url, "/api/config", { noHost: true })).status).toBeGreaterThanOrEqual(400);
  });

  it("refuses cross-site Origin and Sec-Fetch-Site (CSRF), for writes and reads", async () => {
    const body = JSON.stringify({ values: [{ key: "age", value: 1 }], filter: { and: [] } });
    for (const origin of ["http://evil.example", "null", `http://${host.replace(/:\d+$/, ":1")}`, `https://${host}`]) {
      const res = await raw(board.url, "/api/v0/record/demo/employees/update", {
        method: "POST",
        headers: { origin, "x-baseboard-client": "1", "content-type": "application/json" },
        body,
      });
      expectErrorShape(res, 403, "forbidden");
    }
    const crossSite = await raw(board.url, "/api/v0/storage/url/sign/public-assets/x.txt", { headers: { "sec-fetch-site": "cross-site" } });
    expectErrorShape(crossSite, 403, "forbidden");
    const form = await raw(board.url, "/api/v0/record/demo/employees/update", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "text/plain" },
      body,
    });
    expectErrorShape(form, 403, "forbidden");
    // Nothing was updated.
    const check = await raw(board.url, "/api/v0/record/demo/employees/query", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": "application/json" }),
      body: JSON.stringify({ filter: { and: [{ key: "age", operator: "equal", value: 1 }] }, limit: 0 }),
    });
    expect((check.json() as { count: number }).count).toBe(0);
  });

  it("sends no CORS headers, even to a preflight, and marks /api answers same-origin", async () => {
    const preflight = await raw(board.url, "/api/v0/meta", {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST", "access-control-request-headers": "x-api-key" },
    });
    expectNoCors(preflight);
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    for (const p of ["/api/config", "/api/v0/meta", "/api/v0/nope"]) {
      const res = await raw(board.url, p, { headers: fromApp(board.url) });
      expectNoCors(res);
      expect(res.headers["cross-origin-resource-policy"], p).toBe("same-origin");
    }
  });
});

describe("proxy in front of a scripted upstream", () => {
  let upstream: RawUpstream;
  let board: TestBaseboard;
  beforeAll(async () => {
    upstream = await startRawUpstream((req, res) => {
      if (req.url === "/v0/meta") {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not_found","subCode":2,"message":"no"}');
        return;
      }
      req.resume();
      req.on("end", () => {
        res.writeHead(200, {
          "content-type": "application/json",
          "set-cookie": "upstream=1",
          "access-control-allow-origin": "*",
          "x-api-key": KEY,
        });
        res.end('{"message":"ok"}');
      });
    });
    board = await startTestBaseboard({ BASE_URL: upstream.url, API_KEY: KEY });
  });
  afterAll(async () => {
    await board?.stop();
    await upstream?.close();
  });

  it("adds its key, drops the browser's, and lets no cookie or CORS header back", async () => {
    upstream.seen.length = 0;
    const res = await raw(board.url, "/api/v0/record/db_1/people/update", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": "application/json", "x-api-key": "browser", cookie: "a=b", authorization: "Bearer x" }),
      body: "{}",
    });
    expect(res.status).toBe(200);
    expectNoCors(res);
    expectNoKey(res);
    expect(res.headers["set-cookie"]).toBeUndefined();
    // Besides the update, the audit trail may ask the upstream what the update will overwrite
    // (its meta for the primary key, a query): with the proxy's key too, never the browser's.
    const updates = upstream.seen.filter((s) => s.url.endsWith("/update"));
    expect(updates).toHaveLength(1);
    for (const s of upstream.seen) expect(s.headers["x-api-key"]).toBe(KEY);
    const seen = updates[0];
    expect(seen.url).toBe("/v0/record/db_1/people/update");
    expect(seen.headers["x-api-key"]).toBe(KEY);
    expect(seen.headers.cookie).toBeUndefined();
    expect(seen.headers.authorization).toBeUndefined();
  });

  it("forwards path and query byte for byte, HEAD as HEAD, and never the browser's key", async () => {
    upstream.seen.length = 0;
    const paths: [string, string][] = [
      ["GET", "/api/v0/storage/list/b?prefix=a%2Fb%20c&cursor=x&limit=5"],
      ["GET", "/api/v0/storage/url/sign/b/f%C3%A9%20x.txt?expiresIn=60"],
      ["HEAD", "/api/v0/storage/public/b/v1/a.txt?w=10"],
      ["GET", "/api/v0/storage/sign/b/v1/a.txt?Expires=1&Key-Pair-Id=kp&Signature=abc"],
      ["GET", "/api/v0/record/db_1/people/fields"],
    ];
    for (const [method, p] of paths) {
      const res = await raw(board.url, p, { method, headers: fromApp(board.url, { "x-api-key": "browser" }) });
      expect(res.status, p).toBe(200);
    }
    expect(upstream.seen.map((s) => `${s.method} ${s.url}`)).toEqual(paths.map(([m, p]) => `${m} ${p.slice("/api".length)}`));
    for (const s of upstream.seen) expect([KEY, undefined]).toContain(s.headers["x-api-key"]);
  });

  it("forwards only the endpoints of the interface and the extensions, method by method", async () => {
    upstream.seen.length = 0;
    const refused: [string, string][] = [
      ["GET", "/api/v0/record/db_1/people/query"],
      ["GET", "/api/v0/record/db_1/people/delete"],
      ["POST", "/api/v0/record/db_1/people/drop"],
      ["DELETE", "/api/v0/storage/public/b/k.txt"],
      ["PUT", "/api/v0/storage/object/b"],
      ["POST", "/api/v0/storage/url/sign/b/k.txt"],
      ["GET", "/api/v0/admin"],
      ["GET", "/api/v1/meta"],
      ["GET", "/api/v0/../v0/meta"],
      ["GET", "/api/v0/storage/public/b/../../../meta"],
      ["GET", "/api/v0/storage%2f..%2fmeta"],
      ["GET", "/api/v0/storage/public/b/%2e%2e/%2e%2e/x"],
      ["GET", "/api/v0/record/db_1/people/fields/extra"],
      ["GET", "/api/v0"],
      ["GET", "/api/"],
    ];
    for (const [method, p] of refused) {
      const res = await raw(board.url, p, { method, headers: fromApp(board.url, { "content-type": "application/json" }), body: method === "GET" || method === "DELETE" ? undefined : "{}" });
      expect(res.status, `${method} ${p}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${p}`).toBeLessThan(500);
      expectNoCors(res);
    }
    expect(upstream.seen.map((s) => `${s.method} ${s.url}`)).toEqual([]);
  });

  it("with an upstream without meta, /api/config offers the interface alone", async () => {
    const res = await raw(board.url, "/api/config", { headers: fromApp(board.url) });
    expect(res.status).toBe(200);
    const config = res.json() as AppConfig;
    expect(config.capabilities).toMatchObject({ operators: ["equal"], list: false, delete: false, fields: false, meta: false });
    expectNoKey(res);
  });
});

describe("proxy upstream failures (decisions §6)", () => {
  it("an unreachable upstream is a 502 in the error shape", async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const board = await startTestBaseboard({ BASE_URL: `http://127.0.0.1:${port}`, API_KEY: KEY });
    try {
      const res = await raw(board.url, "/api/v0/storage/public/b/k.txt");
      expectErrorShape(res, 502, "bad_gateway");
      expectNoKey(res);
    } finally {
      await board.stop();
    }
  });

  it("an upstream that does not answer in time is a 504 in the error shape", async () => {
    const silent = await startRawUpstream(() => undefined);
    const board = await startTestBaseboard({ BASE_URL: silent.url, API_KEY: KEY, UPSTREAM_TIMEOUT_MS: "300" });
    try {
      const res = await raw(board.url, "/api/v0/record/db/t/query", {
        method: "POST",
        headers: fromApp(board.url, { "content-type": "application/json" }),
        body: "{}",
      });
      expectErrorShape(res, 504, "gateway_timeout");
    } finally {
      await board.stop();
      await silent.close();
    }
  });
});
