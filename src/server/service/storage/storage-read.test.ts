/** Get a file (endpoint 4), permissions from every side, listing, and the seeded samples. */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { CATALOG_KEYS } from "./domain/seed";
import { rawRequest, sha256, upload, type StorageTestService, startStorageService } from "./testing/storage-service";

let svc: StorageTestService;
const content = Buffer.from("0123456789abcdefghijklmnopqrstuvwxyz");
let versioned = "";

/** Whether this machine lets us connect from 127.0.0.2 (Linux routes all of 127/8 to lo). */
async function canUseSecondLoopback(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const req = http.request({ host: u.hostname, port: u.port, path: "/v0/meta", localAddress: "127.0.0.2", agent: false }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on("error", () => resolve(false));
    req.end();
  });
}
let secondLoopback = false;

beforeAll(async () => {
  svc = await startStorageService({ seed: true });
  versioned = (await (await upload(svc, "public-assets", "read/file.txt", content, { type: "text/plain" })).json()).key;
  await upload(svc, "team-files", "read/team.txt", "team only", { type: "text/plain" });
  secondLoopback = await canUseSecondLoopback(svc.url);
  if (!secondLoopback) console.warn("127.0.0.2 is not usable as a source address here: the allow-list tests from outside are skipped.");
});
afterAll(() => svc.close());

const get = (path: string, headers: Record<string, string> = {}, method = "GET") => rawRequest(svc, { method, path, headers });

describe("GET and HEAD", () => {
  it("serves the whole file with the headers of interface §4.4", async () => {
    const r = await get("/v0/storage/public/public-assets/read/file.txt");
    expect(r.status).toBe(200);
    expect(r.body.equals(content)).toBe(true);
    expect(r.headers).toMatchObject({
      "accept-ranges": "bytes",
      "content-type": "text/plain",
      "content-length": String(content.length),
      etag: `"${sha256(content)}"`,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    });
  });

  it("HEAD sends the same headers and no body", async () => {
    const r = await get("/v0/storage/public/public-assets/read/file.txt", {}, "HEAD");
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(0);
    expect(r.headers["content-length"]).toBe(String(content.length));
    expect(r.headers.etag).toBe(`"${sha256(content)}"`);
  });

  it.each([
    ["bytes=0-0", "0", "bytes 0-0/36"],
    ["bytes=7-", "789abcdefghijklmnopqrstuvwxyz", "bytes 7-35/36"],
    ["bytes=-5", "vwxyz", "bytes 31-35/36"],
    ["bytes=30-1000", "uvwxyz", "bytes 30-35/36"],
    ["bytes=10-12", "abc", "bytes 10-12/36"],
  ])("Range %s: 206", async (range, body, contentRange) => {
    const r = await get("/v0/storage/public/public-assets/read/file.txt", { range });
    expect(r.status).toBe(206);
    expect(r.body.toString()).toBe(body);
    expect(r.headers["content-range"]).toBe(contentRange);
    expect(r.headers["content-length"]).toBe(String(body.length));
  });

  it("ignores a Range in another unit (RFC 9110 §14.2): the whole file", async () => {
    const r = await get("/v0/storage/public/public-assets/read/file.txt", { range: "lines=1-2" });
    expect(r.status).toBe(200);
    expect(r.headers["content-length"]).toBe("36");
  });

  it.each(["bytes=36-", "bytes=100-200", "bytes=5-2", "bytes=-0", "bytes=abc"])("Range %s: 416 with bytes */size", async (range) => {
    const r = await get("/v0/storage/public/public-assets/read/file.txt", { range });
    expect(r.status).toBe(416);
    expect(r.headers["content-range"]).toBe("bytes */36");
    expect(JSON.parse(r.body.toString())).toMatchObject({ error: "range_not_satisfiable" });
  });

  it("answers many overlapping ranges with the plain whole file", async () => {
    const r = await get("/v0/storage/public/public-assets/read/file.txt", { range: `bytes=${"0-35,".repeat(500)}0-35` });
    expect(r.status).toBe(200);
    expect(r.body.equals(content)).toBe(true);
  });

  it("HEAD with a range: 206 headers, no body", async () => {
    const r = await get("/v0/storage/public/public-assets/read/file.txt", { range: "bytes=0-9" }, "HEAD");
    expect(r.status).toBe(206);
    expect(r.headers["content-length"]).toBe("10");
    expect(r.body.length).toBe(0);
  });

  it("If-None-Match with the current ETag: 304, no body; another: 200", async () => {
    const etag = `"${sha256(content)}"`;
    const r = await get("/v0/storage/public/public-assets/read/file.txt", { "if-none-match": etag });
    expect(r.status).toBe(304);
    expect(r.body.length).toBe(0);
    expect(r.headers.etag).toBe(etag);
    expect((await get("/v0/storage/public/public-assets/read/file.txt", { "if-none-match": '"other"' })).status).toBe(200);
  });

  it("If-Range with a stale ETag ignores Range", async () => {
    const r = await get("/v0/storage/public/public-assets/read/file.txt", { range: "bytes=0-0", "if-range": '"stale"' });
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(36);
  });

  it("Cache-Control: immutable for a versioned key in a public bucket, private in limitedPublic", async () => {
    expect((await get(`/v0/storage/public/public-assets/${versioned}`)).headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const team = await get("/v0/storage/public/team-files/read/team.txt", { "x-api-key": svc.key });
    expect(team.headers["cache-control"]).toBe("private");
  });

  it("a version that does not exist and an unknown key are 404s; an unknown bucket too", async () => {
    expect((await get("/v0/storage/public/public-assets/v1/read/file.txt")).status).toBe(404);
    expect((await get("/v0/storage/public/public-assets/read/nope.txt")).status).toBe(404);
    const r = await get("/v0/storage/public/no-such-bucket/x.txt");
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body.toString()).message).toMatch(/no bucket "no-such-bucket"/);
  });

  it("serves uploaded SVG sandboxed, so it cannot run script in the app's origin", async () => {
    const r = await get("/v0/storage/public/public-assets/logo.svg");
    expect(r.status).toBe(200);
    expect(r.headers["content-security-policy"]).toMatch(/sandbox/);
  });

  it("keeps streaming memory-flat for many parallel readers of a large file", async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 5);
    await upload(svc, "public-assets", "read/big.bin", big);
    const results = await Promise.all(Array.from({ length: 8 }, () => get("/v0/storage/public/public-assets/read/big.bin")));
    for (const r of results) expect(r.body.equals(big)).toBe(true);
  });
});

describe("permissions", () => {
  const team = "/v0/storage/public/team-files/read/team.txt";
  it.each([
    ["public, no key", "/v0/storage/public/public-assets/read/file.txt", {}, 200],
    ["public, wrong key", "/v0/storage/public/public-assets/read/file.txt", { "x-api-key": "nope" }, 200],
    ["limitedPublic, no key", team, {}, 401],
    ["limitedPublic, wrong key", team, { "x-api-key": "nope" }, 401],
    ["limitedPublic, key, allowed address", team, { "x-api-key": "KEY" }, 200],
    ["limitedPublic, forged X-Forwarded-For is ignored without trustProxy", team, { "x-api-key": "KEY", "x-forwarded-for": "203.0.113.7" }, 200],
    ["forbidden, no key", "/v0/storage/public/vault/secrets/recovery-codes.txt", {}, 403],
    ["forbidden, key", "/v0/storage/public/vault/secrets/recovery-codes.txt", { "x-api-key": "KEY" }, 403],
    ["list without key", "/v0/storage/list/public-assets", {}, 401],
    ["list forbidden", "/v0/storage/list/vault", { "x-api-key": "KEY" }, 403],
    ["sign without key", "/v0/storage/url/sign/public-assets/read/file.txt", {}, 401],
    ["sign forbidden", "/v0/storage/url/sign/vault/secrets/recovery-codes.txt", { "x-api-key": "KEY" }, 403],
  ])("%s: %d", async (_what, path, headers, status) => {
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === "KEY" ? svc.key : v]));
    const r = await get(path, h);
    expect(r.status).toBe(status);
    if (status !== 200) expect(Object.keys(JSON.parse(r.body.toString())).sort()).toEqual(["error", "message", "subCode"]);
  });

  it("uploads to a forbidden bucket are refused", async () => {
    expect((await upload(svc, "vault", "x.txt", "x")).status).toBe(403);
  });

  it.for([
    ["read", "GET", "/v0/storage/public/team-files/read/team.txt"],
    ["list", "GET", "/v0/storage/list/team-files"],
    ["sign", "GET", "/v0/storage/url/sign/team-files/read/team.txt"],
    ["delete", "DELETE", "/v0/storage/object/team-files/read/team.txt"],
  ] as const)("limitedPublic from 127.0.0.2 (outside the allow list): %s is a 403", async ([, method, path], ctx) => {
    if (!secondLoopback) ctx.skip();
    const r = await rawRequest(svc, { method, path, headers: { "x-api-key": svc.key }, localAddress: "127.0.0.2" });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body.toString()).message).toMatch(/127\.0\.0\.2 is not one of them/);
  });

  it("limitedPublic upload from 127.0.0.2 is a 403; public from there is fine", async (ctx) => {
    if (!secondLoopback) ctx.skip();
    const form = new FormData();
    form.append("key", "outside.txt");
    form.append("file", new Blob(["x"]), "x");
    const req = new Request("http://x", { method: "POST", body: form });
    const body = Buffer.from(await req.arrayBuffer());
    const headers = { "x-api-key": svc.key, "content-type": req.headers.get("content-type")! };
    expect((await rawRequest(svc, { method: "POST", path: "/v0/storage/object/team-files", headers, body, localAddress: "127.0.0.2" })).status).toBe(403);
    expect((await rawRequest(svc, { method: "POST", path: "/v0/storage/object/public-assets", headers, body, localAddress: "127.0.0.2" })).status).toBe(200);
    expect((await rawRequest(svc, { path: "/v0/storage/public/public-assets/outside.txt", localAddress: "127.0.0.2" })).status).toBe(200);
  });

  describe("behind a trusted proxy", () => {
    let proxied: StorageTestService;
    beforeAll(async () => {
      proxied = await startStorageService({ seed: false, trustProxy: true });
      await upload(proxied, "team-files", "t.txt", "t");
    });
    afterAll(() => proxied.close());

    it.each([
      [undefined, 200],
      ["127.0.0.1", 200],
      ["203.0.113.7", 403],
      ["127.0.0.1, 203.0.113.7", 403],
      ["203.0.113.7, 127.0.0.1", 200],
    ])("X-Forwarded-For %j: %d (the right-most entry counts)", async (xff, status) => {
      const headers: Record<string, string> = { "x-api-key": proxied.key };
      if (xff) headers["x-forwarded-for"] = xff;
      expect((await rawRequest(proxied, { path: "/v0/storage/public/team-files/t.txt", headers })).status).toBe(status);
    });
  });
});

describe("list (extension)", () => {
  beforeAll(async () => {
    for (const k of ["l/a.txt", "l/b.txt", "l/sub/c.txt", "l/sub/deeper/d.txt", "l/z/e.txt"]) await upload(svc, "public-assets", k, k);
    await upload(svc, "public-assets", "l/a.txt", "newer");
  });

  it("lists one folder level with the latest versions, sorted by key", async () => {
    const r = await svc.call("/v0/storage/list/public-assets?prefix=l/");
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.folders).toEqual(["l/sub/", "l/z/"]);
    expect(body.items.map((i: { key: string }) => i.key)).toEqual(["l/a.txt", "l/b.txt"]);
    expect(body.items[0]).toEqual({
      key: "l/a.txt",
      versionedKey: expect.stringMatching(/^v\d+\/l\/a\.txt$/),
      size: 5,
      // Sent as application/octet-stream: the type is guessed from the .txt extension.
      contentType: "text/plain",
      etag: `"${sha256("newer")}"`,
      lastModified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(body.nextCursor).toBeNull();
  });

  it("pages with limit and cursor, every entry once", async () => {
    const seen: string[] = [];
    let cursor = "";
    for (let i = 0; i < 10; i++) {
      const body = await (await svc.call(`/v0/storage/list/public-assets?prefix=l/&limit=1${cursor ? `&cursor=${cursor}` : ""}`)).json();
      seen.push(...body.folders, ...body.items.map((x: { key: string }) => x.key));
      if (!body.nextCursor) break;
      cursor = body.nextCursor;
    }
    // Every sub-folder comes with the first page (then the files, a page each), once.
    expect(seen).toEqual(["l/sub/", "l/z/", "l/a.txt", "l/b.txt"]);
  });

  it.each([
    ["limit=0", /limit/],
    ["limit=1001", /limit/],
    ["limit=abc", /limit/],
    ["cursor=garbage", /cursor/],
    ["prefix=/abs", /prefix/],
  ])("%s: 400", async (query, message) => {
    const r = await svc.call(`/v0/storage/list/public-assets?${query}`);
    expect(r.status).toBe(400);
    expect((await r.json()).message).toMatch(message);
  });
});

describe("seeded samples (decisions §2)", () => {
  it("public-assets holds the catalog images the records seed names, as real images", async () => {
    const body = await (await svc.call("/v0/storage/list/public-assets?prefix=catalog/")).json();
    expect(body.items.map((i: { key: string }) => i.key).sort()).toEqual([...CATALOG_KEYS].sort());
    const hashes = new Set<string>();
    for (const key of CATALOG_KEYS) {
      const r = await get(`/v0/storage/public/public-assets/${key}`);
      expect(r.status).toBe(200);
      const meta = await sharp(r.body).metadata();
      expect([meta.width, meta.height]).toEqual([800, 600]);
      expect(meta.format).toBe(key.endsWith(".png") ? "png" : "jpeg");
      expect(r.headers["content-type"]).toBe(key.endsWith(".png") ? "image/png" : "image/jpeg");
      hashes.add(sha256(r.body));
    }
    expect(hashes.size).toBe(CATALOG_KEYS.length);
  });

  it("team-files holds a real PDF, a readme and pictures in a folder; vault one file", async () => {
    const pdf = await get("/v0/storage/public/team-files/docs/manual.pdf", { "x-api-key": svc.key });
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const text = pdf.body.toString("latin1");
    expect(text.startsWith("%PDF-1.4")).toBe(true);
    const xref = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(xref, xref + 4)).toBe("xref");
    expect((await get("/v0/storage/public/team-files/docs/readme.txt", { "x-api-key": svc.key })).status).toBe(200);
    const photos = await (await svc.call("/v0/storage/list/team-files?prefix=photos/")).json();
    expect(photos.items.length).toBeGreaterThanOrEqual(2);
    expect((await get("/v0/storage/public/vault/secrets/recovery-codes.txt", { "x-api-key": svc.key })).status).toBe(403);
  });

  it("meta lists the buckets with permission and access", async () => {
    const meta = await (await svc.call("/v0/meta")).json();
    expect(meta.buckets).toEqual([
      { name: "public-assets", permission: "public", access: ["read", "create", "update"] },
      { name: "team-files", permission: "limitedPublic", access: ["read", "create", "update"] },
      { name: "vault", permission: "forbidden", access: [] },
    ]);
  });
});
