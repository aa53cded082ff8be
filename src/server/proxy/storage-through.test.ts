/**
 * Storage through the proxy, against the real local service: a 100 MB upload and download
 * streamed, ranges and ETags passed, and signed URLs that name the proxy and work without a key.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromApp, raw, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

const KEY = "proxy-key-storage-5e2b";
const SIZE = 100 * 1024 * 1024;
const block = Buffer.alloc(64 * 1024).map((_, i) => (i * 13 + 1) & 0xff);

function multipart(key: string, size: number): { body: Readable; length: number; type: string } {
  const boundary = "----bbtest7d1f";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\n${key}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="through.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts() {
    yield head;
    for (let sent = 0; sent < size; sent += block.length) yield block.subarray(0, Math.min(block.length, size - sent));
    yield tail;
  }
  return { body: Readable.from(parts(), { objectMode: false }), length: head.length + size + tail.length, type: `multipart/form-data; boundary=${boundary}` };
}

function expectedHash(size: number): string {
  const h = createHash("sha256");
  for (let sent = 0; sent < size; sent += block.length) h.update(block.subarray(0, Math.min(block.length, size - sent)));
  return h.digest("hex");
}

let board: TestBaseboard;
let versioned = "";

beforeAll(async () => {
  board = await startTestBaseboard({ API_KEY: KEY });
});
afterAll(async () => {
  await board?.stop();
});

describe("storage through the proxy", () => {
  it("streams a 100 MB upload to the service", async () => {
    const form = multipart("big/through.bin", SIZE);
    const res = await raw(board.url, "/api/v0/storage/object/public-assets", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": form.type, "content-length": String(form.length) }),
      body: form.body,
    });
    expect(res.status, res.text).toBe(200);
    versioned = (res.json() as { key: string }).key;
    expect(versioned).toMatch(/^v\d+\/big\/through\.bin$/);
  });

  it("streams the 100 MB download back, byte for byte", async () => {
    const res = await fetch(`${board.url}/api/v0/storage/public/public-assets/${versioned}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(SIZE));
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const h = createHash("sha256");
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) h.update(chunk);
    expect(h.digest("hex")).toBe(expectedHash(SIZE));
  });

  it("passes ranges and conditional requests", async () => {
    const url = `/api/v0/storage/public/public-assets/${versioned}`;
    const ranged = await raw(board.url, url, { headers: { range: "bytes=0-9" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers["content-range"]).toBe(`bytes 0-9/${SIZE}`);
    expect(ranged.body).toEqual(block.subarray(0, 10));
    const etag = ranged.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await raw(board.url, url, { headers: { "if-none-match": etag } })).status).toBe(304);
    const head = await raw(board.url, url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["accept-ranges"]).toBe("bytes");
  });

  it("signs URLs that name the proxy and work without a key, from anywhere", async () => {
    const res = await raw(board.url, `/api/v0/storage/url/sign/public-assets/${versioned}?expiresIn=60`);
    expect(res.status).toBe(200);
    const { url } = res.json() as { url: string };
    expect(url.startsWith(`${board.url}/api/v0/storage/sign/public-assets/`)).toBe(true);
    const signedPath = url.slice(board.url.length);
    const got = await raw(board.url, signedPath, { headers: { range: "bytes=0-3", "sec-fetch-site": "cross-site" } });
    expect(got.status).toBe(206);
    expect(got.body).toEqual(block.subarray(0, 4));
    expect(got.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    const tampered = signedPath.replace(/Signature=([^&])/, (_m, c: string) => `Signature=${c === "A" ? "B" : "A"}`);
    expect((await raw(board.url, tampered)).status).toBe(403);
  });

  it("serves a file linked from another site without the key: public buckets only", async () => {
    const form = multipart("private.bin", 1024);
    const upload = await raw(board.url, "/api/v0/storage/object/team-files", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": form.type, "content-length": String(form.length) }),
      body: form.body,
    });
    expect(upload.status, upload.text).toBe(200);
    const crossSite = { "sec-fetch-site": "cross-site", range: "bytes=0-3" };
    const pub = await raw(board.url, `/api/v0/storage/public/public-assets/${versioned}`, { headers: crossSite });
    expect(pub.status).toBe(206);
    expect(pub.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    // limitedPublic needs the key, which a request from another site does not get.
    const priv = await raw(board.url, "/api/v0/storage/public/team-files/private.bin", { headers: crossSite });
    expect(priv.status).toBe(401);
    const own = await raw(board.url, "/api/v0/storage/public/team-files/private.bin", { headers: { "sec-fetch-site": "same-origin" } });
    expect(own.status).toBe(200);
    expect(own.headers["cross-origin-resource-policy"]).toBe("same-origin");
  });

  it("passes the service's refusals as they are", async () => {
    const vault = await raw(board.url, "/api/v0/storage/public/vault/anything.txt");
    expect(vault.status).toBe(403);
    expect(vault.json()).toMatchObject({ error: "forbidden" });
  });

  it("refuses an upload from another site before the service sees it", async () => {
    const form = multipart("csrf.bin", 1024);
    const res = await raw(board.url, "/api/v0/storage/object/public-assets", {
      method: "POST",
      headers: { origin: "http://evil.example", "x-baseboard-client": "1", "content-type": form.type, "content-length": String(form.length) },
      body: form.body,
    });
    expect(res.status).toBe(403);
    const check = await raw(board.url, "/api/v0/storage/public/public-assets/csrf.bin");
    expect(check.status).toBe(404);
  });
});
