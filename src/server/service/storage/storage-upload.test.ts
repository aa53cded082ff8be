/** Upload (endpoint 3) and delete over real HTTP against real files: issue 3 items 2, 6 and 7. */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, rawRequest, sha256, upload, waitFor, type StorageTestService, startStorageService, stored, partialWrites, waitForAsync } from "./testing/storage-service";

let svc: StorageTestService;
beforeAll(async () => {
  svc = await startStorageService({ seed: false, maxUploadBytes: 12 * 1024 * 1024 });
});
afterAll(() => svc.close());

describe("upload", () => {
  it("stores the file under a new versioned key and serves it back whole", async () => {
    const res = await upload(svc, "public-assets", "docs/hello world.txt", "hello, storage", { type: "text/plain" });
    expect(res.status).toBe(200);
    const { key } = await res.json();
    expect(key).toMatch(/^v\d{13,}\/docs\/hello world\.txt$/);
    const got = await fetch(`${svc.url}/v0/storage/public/public-assets/${encodeURI(key)}`);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe("hello, storage");
    expect(got.headers.get("content-type")).toBe("text/plain");
    expect(got.headers.get("etag")).toBe(`"${sha256("hello, storage")}"`);
  });

  it("gives every upload of one key a new version and serves the latest unversioned", async () => {
    const a = (await (await upload(svc, "public-assets", "same.txt", "one")).json()).key;
    const b = (await (await upload(svc, "public-assets", "same.txt", "two")).json()).key;
    expect(a).not.toBe(b);
    expect(Number(b.slice(1, b.indexOf("/")))).toBeGreaterThan(Number(a.slice(1, a.indexOf("/"))));
    expect(await (await fetch(`${svc.url}/v0/storage/public/public-assets/same.txt`)).text()).toBe("two");
    expect(await (await fetch(`${svc.url}/v0/storage/public/public-assets/${a}`)).text()).toBe("one");
  });

  it("keeps binary content byte for byte, and the content type as uploaded", async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
    const { key } = await (await upload(svc, "public-assets", "bin/data.raw", bytes, { type: "application/x-custom" })).json();
    const got = await fetch(`${svc.url}/v0/storage/public/public-assets/${key}`);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect(got.headers.get("content-type")).toBe("application/x-custom");
  });

  it("takes any UTF-8 key, served back through a percent-encoded URL", async () => {
    const key = "ünïcødé/日本語 ✓ 😀 #1?.txt";
    const res = await upload(svc, "public-assets", key, "unicode");
    expect((await res.json()).key).toMatch(new RegExp(`^v\\d+/${key.replace(/[?.]/g, "\\$&")}$`));
    const url = `${svc.url}/v0/storage/public/public-assets/${key.split("/").map(encodeURIComponent).join("/")}`;
    expect(await (await fetch(url)).text()).toBe("unicode");
  });

  it("accepts a chunked body (no Content-Length)", async () => {
    const { body, contentType } = multipart([{ name: "key", value: "chunked.bin" }, { name: "file", value: Buffer.alloc(300_000, 4), filename: "c" }]);
    const u = new URL(svc.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: u.hostname, port: u.port, method: "POST", path: "/v0/storage/object/public-assets", headers: { "x-api-key": svc.key, "content-type": contentType } }, (r) => {
        r.resume();
        resolve(r.statusCode!);
      });
      req.on("error", reject);
      for (let i = 0; i < body.length; i += 10_000) req.write(body.subarray(i, i + 10_000));
      req.end();
    });
    expect(status).toBe(200);
    const got = await fetch(`${svc.url}/v0/storage/public/public-assets/chunked.bin`);
    expect((await got.arrayBuffer()).byteLength).toBe(300_000);
  });

  it("accepts an empty file", async () => {
    const res = await upload(svc, "public-assets", "empty.txt", "");
    expect(res.status).toBe(200);
    const got = await fetch(`${svc.url}/v0/storage/public/public-assets/empty.txt`);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-length")).toBe("0");
  });

  it.each([
    ["no key", [{ name: "file", value: "x", filename: "a.txt" }], /key part/],
    ["no file", [{ name: "key", value: "a.txt" }], /no file part/],
    ["file before key", [{ name: "file", value: "x", filename: "a.txt" }, { name: "key", value: "a.txt" }], /key part before the file/],
    ["two keys", [{ name: "key", value: "a.txt" }, { name: "key", value: "b.txt" }, { name: "file", value: "x", filename: "a" }], /two key parts/],
    ["two files", [{ name: "key", value: "a.txt" }, { name: "file", value: "x", filename: "a" }, { name: "file", value: "y", filename: "b" }], /two file parts|too many/],
    ["a wrongly named file part", [{ name: "key", value: "a.txt" }, { name: "upload", value: "x", filename: "a" }], /name the file part "file"/],
  ])("refuses a form with %s (400) and stores nothing", async (_what, parts, message) => {
    const before = await stored(svc);
    const { body, contentType } = multipart(parts);
    const res = await rawRequest(svc, { method: "POST", path: "/v0/storage/object/public-assets", headers: { "x-api-key": svc.key, "content-type": contentType }, body });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString()).message).toMatch(message);
    expect(await stored(svc)).toEqual(before);
  });

  it("refuses a body that is not multipart", async () => {
    const res = await svc.call("/v0/storage/object/public-assets", { json: { key: "a", file: "b" } });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/multipart\/form-data/);
  });

  it("accepts the file part as a plain field too", async () => {
    const { body, contentType } = multipart([{ name: "key", value: "plain/field.txt" }, { name: "file", value: "as a field" }]);
    const res = await rawRequest(svc, { method: "POST", path: "/v0/storage/object/public-assets", headers: { "x-api-key": svc.key, "content-type": contentType }, body });
    expect(res.status).toBe(200);
    expect(await (await fetch(`${svc.url}/v0/storage/public/public-assets/plain/field.txt`)).text()).toBe("as a field");
  });
});

describe("hostile keys (all 400, nothing written anywhere)", () => {
  const hostile = [
    "../escape.txt",
    "../../escape.txt",
    "a/../../escape.txt",
    "%2e%2e/escape.txt",
    "%2E%2E%2Fescape.txt",
    "..%2fescape.txt",
    "..%252fescape.txt",
    "a%2fb.txt",
    "a%252fb.txt",
    "..\\escape.txt",
    "a\\b.txt",
    "a\u0000b.txt",
    "a\u0001b.txt",
    "a\nb.txt",
    "a\u001bb.txt",
    "/etc/passwd",
    "//escape.txt",
    "./x.txt",
    "a//b.txt",
    "a/",
    "x".repeat(1025),
    "é".repeat(513),
    "v123/x.txt",
    "v1/x.txt",
    "",
  ];
  it.each(hostile.map((k) => [JSON.stringify(k).slice(0, 60), k]))("%s", async (_label, key) => {
    const parent = path.dirname(svc.dataDir);
    const outsideBefore = fs.readdirSync(parent).filter((n) => n.includes("escape"));
    const before = await stored(svc);
    const { body, contentType } = multipart([{ name: "key", value: key }, { name: "file", value: "pwned", filename: "x.txt" }]);
    const res = await rawRequest(svc, { method: "POST", path: "/v0/storage/object/public-assets", headers: { "x-api-key": svc.key, "content-type": contentType }, body });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: "validation_error" });
    expect(await stored(svc)).toEqual(before);
    expect(fs.readdirSync(parent).filter((n) => n.includes("escape"))).toEqual(outsideBefore);
    expect(fs.existsSync("/etc/passwd.tmp")).toBe(false);
  });

  it("stores file names only by random id: no key text reaches the file system", async () => {
    await upload(svc, "public-assets", "secret-name/file.txt", "x");
    expect((await stored(svc)).some((f) => f.includes("secret-name"))).toBe(false);
  });
});

describe("size limit", () => {
  let small: StorageTestService;
  beforeAll(async () => {
    small = await startStorageService({ seed: false, maxUploadBytes: 100_000 });
  });
  afterAll(() => small.close());

  it("stores a file of exactly the limit", async () => {
    expect((await upload(small, "public-assets", "exact.bin", Buffer.alloc(100_000, 1))).status).toBe(200);
  });

  it("refuses one byte more with a 413 and keeps no part of it", async () => {
    const before = await stored(small);
    const res = await upload(small, "public-assets", "over.bin", Buffer.alloc(100_001, 1));
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/100000 bytes/);
    expect(await waitFor(() => partialWrites(small) === 0, 15_000)).toBe(true);
    expect(await stored(small)).toEqual(before);
    expect((await fetch(`${small.url}/v0/storage/public/public-assets/over.bin`)).status).toBe(404);
  });

  it("refuses a declared Content-Length far over the limit before reading it", async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const u = new URL(small.url);
      const req = http.request({
        host: u.hostname,
        port: u.port,
        method: "POST",
        path: "/v0/storage/object/public-assets",
        headers: { "x-api-key": small.key, "content-type": "multipart/form-data; boundary=x", "content-length": String(50 * 1024 * 1024) },
      });
      req.on("response", (r) => {
        resolve(r.statusCode!);
        req.destroy();
      });
      req.on("error", reject);
      req.write("--x\r\n");
    });
    expect(res).toBe(413);
  });
});

describe("writes always need a key, refused before the body is read", () => {
  it.each([
    ["no key", undefined],
    ["a wrong key", "wrong"],
  ])("%s: 401 while the declared 100 MB body is still unsent", async (_what, apiKey) => {
    const u = new URL(svc.url);
    const status = await new Promise<number>((resolve, reject) => {
      const headers: Record<string, string> = { "content-type": "multipart/form-data; boundary=x", "content-length": String(100 * 1024 * 1024) };
      if (apiKey) headers["x-api-key"] = apiKey;
      const req = http.request({ host: u.hostname, port: u.port, method: "POST", path: "/v0/storage/object/public-assets", headers });
      req.on("response", (r) => {
        resolve(r.statusCode!);
        req.destroy();
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(status).toBe(401);
  });
});

describe("an upload cut off halfway", () => {
  it("leaves no file and no metadata, and the next upload of that key works", async () => {
    const size = 10 * 1024 * 1024;
    const u = new URL(svc.url);
    const boundary = "cutoffboundary";
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\ncut/big.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const objectsBefore = await stored(svc);
    let sawPartial = false;
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: u.hostname,
        port: u.port,
        method: "POST",
        path: "/v0/storage/object/public-assets",
        headers: { "x-api-key": svc.key, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(head.length + size + tail.length) },
      });
      req.on("error", () => resolve());
      req.on("close", () => resolve());
      req.write(head);
      req.write(Buffer.alloc(size / 2, 7), () => {
        // Once the server has part of it in its temp file (on S3: in the multipart upload it
        // started, which is invisible until complete), vanish.
        const started = svc.backend === "disk" ? waitFor(() => partialWrites(svc) > 0, 3000) : new Promise<boolean>((r) => setTimeout(() => r(true), 500));
        started.then((partial) => {
          sawPartial = partial;
          req.destroy();
        });
      });
    });
    expect(sawPartial).toBe(true);
    expect(await waitFor(() => partialWrites(svc) === 0)).toBe(true);
    expect(await waitForAsync(async () => JSON.stringify(await stored(svc)) === JSON.stringify(objectsBefore))).toBe(true);
    expect((await fetch(`${svc.url}/v0/storage/public/public-assets/cut/big.bin`)).status).toBe(404);
    const list = await (await svc.call("/v0/storage/list/public-assets?prefix=cut/")).json();
    expect(list.items).toEqual([]);

    const whole = Buffer.alloc(size, 9);
    const res = await upload(svc, "public-assets", "cut/big.bin", whole);
    expect(res.status).toBe(200);
    const got = await fetch(`${svc.url}/v0/storage/public/public-assets/cut/big.bin`);
    expect(got.headers.get("etag")).toBe(`"${sha256(whole)}"`);
    expect(Buffer.from(await got.arrayBuffer()).equals(whole)).toBe(true);
  });
});

describe("twenty concurrent uploads of one key", () => {
  it("answers each with a distinct version holding exactly its bytes", async () => {
    const bodies = Array.from({ length: 20 }, (_, i) => Buffer.alloc(50_000 + i * 1000, i + 1));
    const responses = await Promise.all(bodies.map((b) => upload(svc, "public-assets", "race/one.bin", b)));
    expect(responses.map((r) => r.status)).toEqual(bodies.map(() => 200));
    const keys: string[] = await Promise.all(responses.map(async (r) => (await r.json()).key));
    expect(new Set(keys).size).toBe(20);
    for (const [i, key] of keys.entries()) {
      const got = await fetch(`${svc.url}/v0/storage/public/public-assets/${key}`);
      const bytes = Buffer.from(await got.arrayBuffer());
      expect(bytes.equals(bodies[i])).toBe(true);
      expect(got.headers.get("etag")).toBe(`"${sha256(bodies[i])}"`);
    }
    const latest = await fetch(`${svc.url}/v0/storage/public/public-assets/race/one.bin`);
    const latestBytes = Buffer.from(await latest.arrayBuffer());
    const newest = keys.reduce((a, b) => (Number(b.split("/")[0].slice(1)) > Number(a.split("/")[0].slice(1)) ? b : a));
    expect(latestBytes.equals(bodies[keys.indexOf(newest)])).toBe(true);
  });
});
