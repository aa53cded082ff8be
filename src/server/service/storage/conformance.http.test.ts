/**
 * Black-box conformance of the Storage endpoints, written from the interface (§4.3–§4.4, §5) and
 * decisions §6–§7 alone: every check below is a sentence of that text, tested over real HTTP.
 * Signed URLs, listing and delete are in conformance-extras.http.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, rawRequest, upload, writeBuckets, type StorageTestService, startStorageService, stored } from "./testing/storage-service";

let svc: StorageTestService;
const VERSIONED = /^v\d+\//;

async function expectError(res: { status: number; json(): Promise<unknown> } | Response, status: number, error: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toEqual({ error, subCode: expect.any(Number), message: expect.any(String) });
  expect(Number.isInteger(body.subCode)).toBe(true);
  expect((body.message as string).length).toBeGreaterThan(10);
  return body;
}

async function put(bucket: string, key: string, body: Buffer | string, type = "text/plain"): Promise<string> {
  const res = await upload(svc, bucket, key, body, { type });
  expect(res.status).toBeLessThan(300);
  const json = (await res.json()) as { key: string };
  return json.key;
}

const get = (p: string, headers: Record<string, string> = {}) => fetch(`${svc.url}${p}`, { headers });

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-conf-"));
  writeBuckets(dataDir, [
    { name: "public-assets", permission: "public", access: ["read", "create", "update"] },
    { name: "team-files", permission: "limitedPublic", access: ["read", "create", "update"], allowedIps: ["127.0.0.1", "::1"] },
    { name: "vault", permission: "forbidden", access: ["read", "create", "update"] },
    { name: "create-only", permission: "public", access: ["read", "create"] },
    { name: "read-only", permission: "public", access: ["read"] },
  ]);
  svc = await startStorageService({ dataDir, seed: false });
});
afterAll(async () => {
  await svc?.close();
  fs.rmSync(svc.dataDir, { recursive: true, force: true });
});

describe("upload (interface §4.3, decisions §7)", () => {
  it("answers exactly {key: v<timestamp>/<key>}, and two uploads never share a version", async () => {
    const res = await upload(svc, "public-assets", "conf/hello.txt", "hello");
    expect(res.status).toBeLessThan(300);
    const body = (await res.json()) as { key: string };
    expect(Object.keys(body)).toEqual(["key"]);
    expect(body.key).toMatch(/^v\d+\/conf\/hello\.txt$/);
    const again = await put("public-assets", "conf/hello.txt", "hello");
    expect(again).not.toBe(body.key);
  });

  it("needs an API key even on a public bucket, and a valid one", async () => {
    const none = await upload(svc, "public-assets", "conf/nokey.txt", "x", { apiKey: null });
    expect(await expectError(none, 401, "auth_error")).toMatchObject({ subCode: 4 });
    const wrong = await upload(svc, "public-assets", "conf/nokey.txt", "x", { apiKey: "not-a-key" });
    expect(await expectError(wrong, 401, "auth_error")).toMatchObject({ subCode: 4 });
    expect((await get("/v0/storage/public/public-assets/conf/nokey.txt")).status).toBe(404);
  });

  it("a new key needs create, an existing one needs update", async () => {
    await put("create-only", "once.txt", "1");
    await expectError(await upload(svc, "create-only", "once.txt", "2"), 403, "forbidden");
    expect(await (await get("/v0/storage/public/create-only/once.txt")).text()).toBe("1");
    await expectError(await upload(svc, "read-only", "new.txt", "1"), 403, "forbidden");
  });

  it("refuses a missing bucket (404), a forbidden one and a disallowed address (403)", async () => {
    await expectError(await upload(svc, "no-such-bucket", "a.txt", "x"), 404, "not_found");
    await expectError(await upload(svc, "no-such-bucket", "a.txt", "x", { apiKey: null }), 401, "auth_error");
    await expectError(await upload(svc, "vault", "a.txt", "x"), 403, "forbidden");
    const form = multipart([{ name: "key", value: "a.txt" }, { name: "file", value: "x", filename: "a.txt" }]);
    const far = await rawRequest(svc, {
      method: "POST",
      path: "/v0/storage/object/team-files",
      headers: { "x-api-key": svc.key, "content-type": form.contentType },
      body: form.body,
      localAddress: "127.0.0.2",
    });
    expect(far.status).toBe(403);
    expect(JSON.parse(far.body.toString()).error).toBe("forbidden");
  });

  const badKeys: [string, string][] = [
    ["empty", ""],
    ["leading slash", "/a.txt"],
    ["empty segment", "a//b.txt"],
    ["trailing slash", "a/"],
    ["dot segment", "a/./b.txt"],
    ["dot-dot segment", "a/../b.txt"],
    ["only dot-dot", ".."],
    ["backslash", "a\\b.txt"],
    ["NUL", "a\u0000b.txt"],
    ["tab", "a\tb.txt"],
    ["newline", "a\nb.txt"],
    ["DEL", "a\u007fb.txt"],
    ["version prefix", "v123/a.txt"],
    ["bare version prefix", "v1/"],
    ["1025 bytes", "a".repeat(1025)],
    ["1026 bytes of 2-byte characters", "é".repeat(513)],
  ];
  it.each(badKeys)("a key with %s is a 400 and nothing is stored", async (_what, key) => {
    const before = await stored(svc);
    await expectError(await upload(svc, "public-assets", key, "bad"), 400, "validation_error");
    expect(await stored(svc)).toEqual(before);
  });

  const goodKeys = ["a".repeat(1024), "é".repeat(512), "v/a.txt", "V12/a.txt", "v12a/b.txt", "folder/sub/ünïcödé ✓.txt", "...hidden", "a.b/c..d", "Invoice%202024.pdf", "100% #1? yes&no=+.txt"];
  it.each(goodKeys)("accepts the legal key %#", async (key) => {
    const versioned = await put("public-assets", key, "ok");
    expect(versioned).toBe(`${versioned.match(VERSIONED)![0]}${key}`);
    const res = await get(`/v0/storage/public/public-assets/${key.split("/").map(encodeURIComponent).join("/")}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
  });

  it("odd multipart bodies are 400s, never 500s or hangs", async () => {
    const send = (body: Buffer | string, contentType?: string) =>
      rawRequest(svc, {
        method: "POST",
        path: "/v0/storage/object/public-assets",
        headers: { "x-api-key": svc.key, ...(contentType ? { "content-type": contentType } : {}) },
        body,
      });
    const noFile = multipart([{ name: "key", value: "odd/a.txt" }]);
    const fileFirst = multipart([{ name: "file", value: "x", filename: "a" }, { name: "key", value: "odd/b.txt" }]);
    const noKey = multipart([{ name: "file", value: "x", filename: "a" }]);
    const keyAsFile = multipart([{ name: "key", value: "odd/h.txt", filename: "k" }, { name: "file", value: "x", filename: "a" }]);
    const unclosed = multipart([{ name: "key", value: "odd/i.txt" }, { name: "file", value: "x", filename: "a" }]);
    const twoFiles = multipart([{ name: "key", value: "odd/c.txt" }, { name: "file", value: "x", filename: "a" }, { name: "file", value: "y", filename: "b" }]);
    const twoKeys = multipart([{ name: "key", value: "odd/d.txt" }, { name: "key", value: "odd/e.txt" }, { name: "file", value: "x", filename: "a" }]);
    const cases: [Buffer | string, string | undefined][] = [
      [noFile.body, noFile.contentType],
      [fileFirst.body, fileFirst.contentType],
      [noKey.body, noKey.contentType],
      [keyAsFile.body, keyAsFile.contentType],
      [unclosed.body.subarray(0, unclosed.body.length - 30), unclosed.contentType],
      [twoFiles.body, twoFiles.contentType],
      [twoKeys.body, twoKeys.contentType],
      [noFile.body, "multipart/form-data"],
      ['{"key":"odd/f.txt"}', "application/json"],
      ["key=odd/g.txt", "application/x-www-form-urlencoded"],
      ["", undefined],
      ["--x\r\ngarbage", "multipart/form-data; boundary=x"],
    ];
    const before = await stored(svc);
    cases.push(["x", "multipart/mixed; boundary=x"], ["x", "application/octet-stream"], ["x", "image/png"]);
    for (const [body, type] of cases) {
      const res = await send(body, type);
      expect(res.status, `${type}: ${String(body).slice(0, 60)}`).toBe(400);
      const err = JSON.parse(res.body.toString());
      expect(err.error).toBe("validation_error");
      expect(err.message, type).not.toMatch(/application\/json/);
    }
    expect(await stored(svc)).toEqual(before);
    const list = await svc.call("/v0/storage/list/public-assets?prefix=odd/");
    expect(((await list.json()) as { items: unknown[] }).items).toEqual([]);
  });

  it("an empty file is a file: 0 bytes back, and a range on it is a 416", async () => {
    const k = await put("public-assets", "conf/empty.bin", "", "application/octet-stream");
    const res = await get(`/v0/storage/public/public-assets/${k}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("0");
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    const ranged = await get(`/v0/storage/public/public-assets/${k}`, { range: "bytes=0-0" });
    expect(ranged.status).toBe(416);
    expect(ranged.headers.get("content-range")).toBe("bytes */0");
  });
});

describe("get a file (interface §4.4, decisions §7)", () => {
  const body = "0123456789abcdefghij"; // 20 bytes
  let v1: string;
  let v2: string;
  beforeAll(async () => {
    v1 = await put("public-assets", "get/file.txt", "old version", "text/x-custom; charset=utf-8");
    v2 = await put("public-assets", "get/file.txt", body, "application/x-baseboard-test");
  });

  it("a versioned key serves that version, an unversioned one the latest", async () => {
    expect(await (await get(`/v0/storage/public/public-assets/${v1}`)).text()).toBe("old version");
    expect(await (await get(`/v0/storage/public/public-assets/${v2}`)).text()).toBe(body);
    expect(await (await get("/v0/storage/public/public-assets/get/file.txt")).text()).toBe(body);
  });

  it("sends the headers of §4.4 with the Cache-Control of §7", async () => {
    const versioned = await get(`/v0/storage/public/public-assets/${v2}`);
    expect(versioned.headers.get("accept-ranges")).toBe("bytes");
    expect(versioned.headers.get("content-type")).toBe("application/x-baseboard-test");
    expect(versioned.headers.get("content-length")).toBe("20");
    expect(versioned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = versioned.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const old = await get(`/v0/storage/public/public-assets/${v1}`);
    expect(old.headers.get("content-type")).toBe("text/x-custom; charset=utf-8");
    expect(old.headers.get("etag")).not.toBe(etag);
    const latest = await get("/v0/storage/public/public-assets/get/file.txt");
    expect(latest.headers.get("cache-control")).toBe("no-cache");
    expect(latest.headers.get("etag")).toBe(etag);
    const limitedKey = await put("team-files", "get/private.txt", "secret");
    for (const p of [limitedKey, "get/private.txt"]) {
      const res = await svc.call(`/v0/storage/public/team-files/${p}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private");
    }
  });

  it("HEAD sends the same headers and no body", async () => {
    const res = await fetch(`${svc.url}/v0/storage/public/public-assets/${v2}`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("20");
    expect(res.headers.get("etag")).toMatch(/^"/);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  const ranges: [string, number, string, string][] = [
    ["bytes=0-0", 206, "bytes 0-0/20", "0"],
    ["bytes=7-", 206, "bytes 7-19/20", "789abcdefghij"],
    ["bytes=-5", 206, "bytes 15-19/20", "fghij"],
    ["bytes=18-999", 206, "bytes 18-19/20", "ij"],
    ["bytes=5-9", 206, "bytes 5-9/20", "56789"],
  ];
  it.each(ranges)("Range %s → %i %s", async (range, status, contentRange, text) => {
    const res = await get(`/v0/storage/public/public-assets/${v2}`, { range });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-range")).toBe(contentRange);
    expect(res.headers.get("content-length")).toBe(String(text.length));
    expect(await res.text()).toBe(text);
  });

  it.each(["bytes=20-", "bytes=25-30", "bytes=-0", "bytes=9-3"])("unsatisfiable %s → 416 with bytes */size", async (range) => {
    const res = await get(`/v0/storage/public/public-assets/${v2}`, { range });
    expect(res.headers.get("content-range")).toBe("bytes */20");
    await expectError(res, 416, "range_not_satisfiable");
  });

  it("If-None-Match with the ETag is a 304; another ETag is a 200", async () => {
    const etag = (await get(`/v0/storage/public/public-assets/${v2}`)).headers.get("etag")!;
    const same = await get(`/v0/storage/public/public-assets/${v2}`, { "if-none-match": etag });
    expect(same.status).toBe(304);
    expect(same.headers.get("etag")).toBe(etag);
    expect((await same.arrayBuffer()).byteLength).toBe(0);
    const latest = await get("/v0/storage/public/public-assets/get/file.txt", { "if-none-match": `"nope", ${etag}` });
    expect(latest.status).toBe(304);
    const other = await get(`/v0/storage/public/public-assets/${v1}`, { "if-none-match": etag });
    expect(other.status).toBe(200);
  });

  it("If-None-Match: * is a 304; several ranges get the whole file; HEAD with a Range is a bodiless 206", async () => {
    expect((await get(`/v0/storage/public/public-assets/${v2}`, { "if-none-match": "*" })).status).toBe(304);
    const multi = await get(`/v0/storage/public/public-assets/${v2}`, { range: "bytes=0-1,5-6" });
    expect(multi.status).toBe(200);
    expect(await multi.text()).toBe(body);
    const head = await fetch(`${svc.url}/v0/storage/public/public-assets/${v2}`, { method: "HEAD", headers: { range: "bytes=2-3" } });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-range")).toBe("bytes 2-3/20");
    expect(head.headers.get("content-length")).toBe("2");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("missing object, version or bucket is a 404 in the error shape", async () => {
    await expectError(await get("/v0/storage/public/public-assets/get/none.txt"), 404, "not_found");
    await expectError(await get("/v0/storage/public/public-assets/v1/get/file.txt"), 404, "not_found");
    await expectError(await get("/v0/storage/public/no-such-bucket/a.txt"), 404, "not_found");
    await expectError(await svc.call("/v0/storage/public/no-such-bucket/a.txt"), 404, "not_found");
  });

  it("odd paths are 4xx in the error shape, never 500", async () => {
    const paths = [
      "/v0/storage/public/public-assets/",
      "/v0/storage/public/public-assets",
      "/v0/storage/public//a.txt",
      "/v0/storage/public/public-assets/a%2F..%2F..%2Fetc%2Fpasswd",
      "/v0/storage/public/public-assets/..%2F..%2Fbuckets.json",
      "/v0/storage/public/public-assets/%2e%2e/x",
      "/v0/storage/public/public-assets/a%00b",
      "/v0/storage/public/public-assets/a%5Cb",
      "/v0/storage/public/public-assets/%ff%fe",
      "/v0/storage/public/public-assets/v99999999999999999999999/a.txt",
      "/v0/storage/public/public-assets/get//file.txt",
    ];
    for (const p of paths) {
      const res = await rawRequest(svc, { path: p });
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.status, p).toBeLessThan(500);
      expect(Object.keys(JSON.parse(res.body.toString())).sort(), p).toEqual(["error", "message", "subCode"]);
    }
  });
});

describe("permissions (interface §2.6, §5; decisions §6)", () => {
  beforeAll(async () => {
    await put("team-files", "perm/a.txt", "team");
  });

  it("public: no key needed", async () => {
    await put("public-assets", "perm/p.txt", "pub");
    const res = await get("/v0/storage/public/public-assets/perm/p.txt");
    expect(res.status).toBe(200);
  });

  it("limitedPublic: a key from an allowed address; otherwise 401 or 403", async () => {
    expect((await svc.call("/v0/storage/public/team-files/perm/a.txt")).status).toBe(200);
    const none = await get("/v0/storage/public/team-files/perm/a.txt");
    expect(await expectError(none, 401, "auth_error")).toMatchObject({ subCode: 4 });
    const wrong = await get("/v0/storage/public/team-files/perm/a.txt", { "x-api-key": "wrong" });
    const body = await expectError(wrong, 401, "auth_error");
    expect(body.subCode).toBe(4);
    expect(body.message).toMatch(/key/i);
    const far = await rawRequest(svc, { path: "/v0/storage/public/team-files/perm/a.txt", headers: { "x-api-key": svc.key }, localAddress: "127.0.0.2" });
    expect(far.status).toBe(403);
    expect(JSON.parse(far.body.toString()).error).toBe("forbidden");
  });

  it("forbidden: 403 for everyone, with or without a key, whatever the file", async () => {
    for (const headers of [{}, { "x-api-key": svc.key }] as Record<string, string>[]) {
      await expectError(await get("/v0/storage/public/vault/x.txt", headers), 403, "forbidden");
      await expectError(await get("/v0/storage/url/sign/vault/x.txt", headers), 403, "forbidden");
    }
  });
});

describe("resizing (interface §4.4, decisions §7)", () => {
  let png: string;
  let jpeg: string;
  let text: string;
  beforeAll(async () => {
    const img = sharp({ create: { width: 200, height: 100, channels: 3, background: "#3366cc" } });
    png = await put("public-assets", "img/pic.png", await img.clone().png().toBuffer(), "image/png");
    jpeg = await put("public-assets", "img/pic.jpg", await img.clone().jpeg().toBuffer(), "image/jpeg");
    text = await put("public-assets", "img/notes.txt", "not an image", "text/plain");
  });

  const size = async (res: Response) => {
    expect(res.status).toBe(200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    return [meta.format, meta.width, meta.height];
  };

  it.each([
    ["w=50", "png", 50, 25],
    ["h=20", "png", 40, 20],
    ["w=50&h=50", "png", 50, 25],
    ["w=4096", "png", 200, 100],
    ["w=4096&h=4096", "png", 200, 100],
    ["w=1&h=1", "png", 1, 1],
  ])("query %s fits inside, never enlarges, same format", async (q, format, w, h) => {
    expect(await size(await get(`/v0/storage/public/public-assets/${png}?${q}`))).toEqual([format, w, h]);
  });

  it("w and h as request headers, on PNG and JPEG, from the latest and a version", async () => {
    expect(await size(await get(`/v0/storage/public/public-assets/${png}`, { w: "50" }))).toEqual(["png", 50, 25]);
    expect(await size(await get("/v0/storage/public/public-assets/img/pic.jpg", { h: "10" }))).toEqual(["jpeg", 20, 10]);
    const res = await get(`/v0/storage/public/public-assets/${jpeg}?w=100`);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(await size(res)).toEqual(["jpeg", 100, 50]);
  });

  it("a resized answer has its own strong ETag and Content-Length", async () => {
    const orig = await get(`/v0/storage/public/public-assets/${png}`);
    const small = await get(`/v0/storage/public/public-assets/${png}?w=50`);
    const bytes = Buffer.from(await small.arrayBuffer());
    expect(small.headers.get("content-length")).toBe(String(bytes.length));
    expect(small.headers.get("etag")).toMatch(/^"/);
    expect(small.headers.get("etag")).not.toBe(orig.headers.get("etag"));
    const wrong = await get(`/v0/storage/public/public-assets/${png}?w=50`, { "if-none-match": orig.headers.get("etag")! });
    expect(wrong.status).toBe(200);
    const right = await get(`/v0/storage/public/public-assets/${png}?w=50`, { "if-none-match": small.headers.get("etag")! });
    expect(right.status).toBe(304);
    expect(small.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await get("/v0/storage/public/public-assets/img/pic.png?w=50")).headers.get("cache-control")).toBe("no-cache");
    const head = await fetch(`${svc.url}/v0/storage/public/public-assets/${png}?w=50`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(bytes.length));
    expect(head.headers.get("etag")).toBe(small.headers.get("etag"));
  });

  it("a range of a resized image is a range of the resized bytes", async () => {
    const full = Buffer.from(await (await get(`/v0/storage/public/public-assets/${png}?w=50`)).arrayBuffer());
    const part = await get(`/v0/storage/public/public-assets/${png}?w=50`, { range: "bytes=0-9" });
    expect([200, 206]).toContain(part.status);
    const got = Buffer.from(await part.arrayBuffer());
    if (part.status === 206) {
      expect(part.headers.get("content-range")).toBe(`bytes 0-9/${full.length}`);
      expect(got).toEqual(full.subarray(0, 10));
    } else expect(got).toEqual(full);
  });

  it.each(["w=0", "w=4097", "h=0", "h=99999", "w=abc", "w=1.5", "w=-3", "w=", "w=10&w=20", "w=1e2", "w=%2010"])("%s is a 400", async (q) => {
    await expectError(await get(`/v0/storage/public/public-assets/${png}?${q}`), 400, "validation_error");
  });

  it("bad header values and w/h on a non-image are 400s (GET and HEAD)", async () => {
    await expectError(await get(`/v0/storage/public/public-assets/${png}`, { w: "0" }), 400, "validation_error");
    await expectError(await get(`/v0/storage/public/public-assets/${png}`, { h: "5000" }), 400, "validation_error");
    await expectError(await get(`/v0/storage/public/public-assets/${text}?w=10`), 400, "validation_error");
    await expectError(await get(`/v0/storage/public/public-assets/${text}`, { w: "10" }), 400, "validation_error");
    const head = await fetch(`${svc.url}/v0/storage/public/public-assets/${text}?w=10`, { method: "HEAD" });
    expect(head.status).toBe(400);
  });
});
