/**
 * The proxy against a scripted raw upstream (BASE_URL on loopback): what crosses in each
 * direction, streaming both ways, and every way an upstream can fail.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromApp, raw, type RawUpstream, startRawUpstream, startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

const KEY = "proxy-key-7f3a9c1e5b";
const MB = 1024 * 1024;

/** A deterministic 64 KiB block repeated: cheap to make and to hash. */
const block = Buffer.alloc(64 * 1024, 0).map((_, i) => (i * 31 + 7) & 0xff);
function bytes(total: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const n = Math.min(block.length, total - sent);
      sent += n;
      this.push(n === block.length ? block : block.subarray(0, n));
    },
  });
}
async function sha256Of(stream: AsyncIterable<Buffer>): Promise<{ hash: string; size: number }> {
  const h = createHash("sha256");
  let size = 0;
  for await (const c of stream) {
    h.update(c);
    size += c.length;
  }
  return { hash: h.digest("hex"), size };
}

let upstream: RawUpstream;
let board: TestBaseboard;
/** Resolves when the upstream has seen the first bytes of a streamed upload. */
let firstBytes: () => void = () => {};
let uploaded: Promise<{ hash: string; size: number }> | undefined;
let releaseDownload: () => void = () => {};

beforeAll(async () => {
  upstream = await startRawUpstream((req, res) => {
    const url = req.url ?? "";
    if (url.startsWith("/v0/record/demo/employees/query")) {
      res.writeHead(200, {
        "content-type": "application/json",
        connection: "x-secret-hop",
        "x-secret-hop": "1",
        "set-cookie": "upstream=1",
        "access-control-allow-origin": "*",
        "x-matched-count": "3",
      });
      return res.end(JSON.stringify({ items: [], count: 0 }));
    }
    if (url.startsWith("/v0/storage/object/")) {
      let seenFirst = false;
      const hashing = sha256Of(
        (async function* () {
          for await (const c of req) {
            if (!seenFirst) {
              seenFirst = true;
              firstBytes();
            }
            yield c as Buffer;
          }
        })(),
      );
      uploaded = hashing;
      hashing.then(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ key: "v1/big.bin" }));
      });
      return;
    }
    if (url.startsWith("/v0/storage/public/b/big.bin")) {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(100 * MB), etag: '"big"' });
      // First block, then the rest only once the browser side has it: a buffering proxy deadlocks.
      res.write(block);
      new Promise<void>((r) => (releaseDownload = r)).then(() => bytes(100 * MB - block.length).pipe(res));
      return;
    }
    if (url.startsWith("/v0/storage/public/b/ranged.txt")) {
      const headers = { "content-type": "text/plain", etag: '"r1"', "cache-control": "private", "accept-ranges": "bytes", "content-disposition": 'inline; filename="ranged.txt"' };
      if (req.headers["if-none-match"] === '"r1"') {
        res.writeHead(304, headers);
        return res.end();
      }
      if (req.headers.range === "bytes=0-4") {
        res.writeHead(206, { ...headers, "content-range": "bytes 0-4/11", "content-length": "5" });
        return res.end("hello");
      }
      res.writeHead(200, headers);
      return res.end("hello world");
    }
    if (url.startsWith("/v0/storage/public/b/doc.pdf")) {
      res.writeHead(200, { "content-type": "application/pdf" });
      return res.end("%PDF-1.4");
    }
    if (url.startsWith("/v0/storage/public/b/page.html")) {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("<script>fetch('/api/v0/meta')</script>");
    }
    if (url.startsWith("/v0/storage/public/b/cut.bin")) {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": "100000" });
      res.write(Buffer.alloc(1000));
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    if (url.startsWith("/v0/storage/public/b/reset.bin")) {
      req.socket.destroy();
      return;
    }
    if (url.startsWith("/v0/storage/public/b/slow.bin")) return; // never answers
    // Error answers of an upstream that does not keep to the shape (review 55a #1).
    const errors: Record<string, [number, string, string]> = {
      "/v0/storage/public/b/traceback.txt": [500, "text/html", '<html><body>Traceback File "/srv/hosted/app.py", line 42 psycopg2.errors.UndefinedColumn: SELECT secret FROM tenant_9</body></html>'],
      "/v0/storage/public/b/leak.txt": [500, "application/json", JSON.stringify({ error: "internal_error", subCode: 0, message: 'relation "tenant_9.rt_1" does not exist at /srv/hosted/db.py:88', stack: "Error: at /srv/x.js:1" })],
      "/v0/storage/public/b/teapot.txt": [418, "application/json", '{"foo":1}'],
      "/v0/storage/public/b/extra.txt": [404, "application/json", JSON.stringify({ error: "not_found", subCode: 2, message: "No file b/extra.txt.", stack: "at /srv/x.js:9", sql: "SELECT 1" })],
      "/v0/storage/public/b/busy.txt": [503, "application/json", JSON.stringify({ error: "unavailable", subCode: 12, message: "Resizing is busy; try again in a moment." })],
      "/v0/storage/public/b/html404.txt": [404, "text/html", "<h1>Not Found</h1><p>nginx/1.2 at /var/www</p>"],
      // In the shape, and naming internals all the same (review 56a #2), or a code of its own (#4).
      "/v0/storage/public/b/sql.txt": [400, "application/json", JSON.stringify({ error: "validation_error", subCode: 1, message: 'syntax error at or near "SELECT" in SELECT secret FROM tenant_9 WHERE x' })],
      "/v0/storage/public/b/path.txt": [400, "application/json", JSON.stringify({ error: "validation_error", subCode: 1, message: "could not open /var/lib/hosted/tenant9/data.db" })],
      "/v0/storage/public/b/stack.txt": [400, "application/json", JSON.stringify({ error: "validation_error", subCode: 1, message: "Error: bad\n    at Object.<anonymous> (/srv/app/index.js:10:5)" })],
      "/v0/storage/public/b/own-code.txt": [400, "application/json", JSON.stringify({ error: "bad_thing", subCode: 77, message: "Send a smaller w." })],
      "/v0/storage/public/b/limited.txt": [429, "application/json", JSON.stringify({ error: "rate_limited", subCode: 0, message: "slow down" })],
      "/v0/storage/public/b/moved.txt": [302, "text/html", "moved"],
      "/v0/storage/public/b/huge.txt": [500, "text/html", `<pre>${"Traceback line\n".repeat(20_000)}</pre>`],
    };
    if (url.startsWith("/v0/record/demo/empty/query")) {
      res.writeHead(204);
      return res.end();
    }
    if (url.startsWith("/v0/storage/public/b/not-modified.txt")) {
      res.writeHead(304, { etag: '"x"' });
      return res.end();
    }
    if (url.startsWith("/v0/storage/public/b/limited-bare.txt")) {
      res.writeHead(429, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: "rate_limited", subCode: 0, message: "slow down" }));
    }
    const scripted = errors[url.split("?")[0]];
    if (scripted) {
      res.writeHead(scripted[0], { "content-type": scripted[1], "x-internal-host": "db-7.internal", "retry-after": "5", location: "http://elsewhere.example/" });
      return res.end(scripted[2]);
    }
    res.writeHead(500);
    res.end("unexpected");
  });
  board = await startTestBaseboard({ BASE_URL: upstream.url, API_KEY: KEY, UPSTREAM_TIMEOUT_MS: "700" });
});

afterAll(async () => {
  await board?.stop();
  await upstream?.close();
});

describe("what crosses the proxy", () => {
  it("adds our key and drops the browser's key, cookies and Origin", async () => {
    const before = upstream.seen.length;
    const res = await raw(board.url, "/api/v0/record/demo/employees/query", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": "application/json", "x-api-key": "browser-key", cookie: "a=b", authorization: "Basic eA==" }),
      body: "{}",
    });
    expect(res.status).toBe(200);
    const seen = upstream.seen.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0].headers["x-api-key"]).toBe(KEY);
    expect(JSON.stringify(seen.map((s) => s.headers))).not.toContain("browser-key");
    expect(seen[0].headers.cookie).toBeUndefined();
    expect(seen[0].headers.authorization).toBeUndefined();
    expect(seen[0].headers.origin).toBeUndefined();
  });

  it("strips hop-by-hop, cookie and CORS headers of the answer, keeps x-matched-count, adds CORP", async () => {
    const res = await raw(board.url, "/api/v0/record/demo/employees/query", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": "application/json" }),
      body: "{}",
    });
    expect(res.headers["x-secret-hop"]).toBeUndefined();
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(Object.keys(res.headers).filter((h) => h.startsWith("access-control"))).toEqual([]);
    expect(res.headers["x-matched-count"]).toBe("3");
    expect(res.headers["cross-origin-resource-policy"]).toBe("same-origin");
    expect(res.text).not.toContain(KEY);
  });

  it("passes Range, If-None-Match and their answers", async () => {
    const ranged = await raw(board.url, "/api/v0/storage/public/b/ranged.txt", { headers: { range: "bytes=0-4" } });
    expect(ranged.status).toBe(206);
    expect(ranged.text).toBe("hello");
    expect(ranged.headers).toMatchObject({
      "content-range": "bytes 0-4/11",
      "content-length": "5",
      etag: '"r1"',
      "cache-control": "private",
      "accept-ranges": "bytes",
      "content-type": "text/plain",
      "content-disposition": 'inline; filename="ranged.txt"',
    });
    const cached = await raw(board.url, "/api/v0/storage/public/b/ranged.txt", { headers: { "if-none-match": '"r1"' } });
    expect(cached.status).toBe(304);
  });

  it("sandboxes uploaded files so an HTML file cannot script the app's origin (PDFs excepted)", async () => {
    const html = await raw(board.url, "/api/v0/storage/public/b/page.html");
    expect(html.headers["content-security-policy"]).toMatch(/^sandbox;/);
    expect(html.headers["x-content-type-options"]).toBe("nosniff");
    const pdf = await raw(board.url, "/api/v0/storage/public/b/doc.pdf");
    expect(pdf.headers["content-security-policy"]).toBeUndefined();
    expect(pdf.headers["cross-origin-resource-policy"]).toBe("same-origin");
  });
});

describe("streaming", () => {
  it("streams a 100 MB upload: the upstream has the first bytes before the browser has sent the rest", async () => {
    const gotFirst = new Promise<void>((r) => (firstBytes = r));
    let sent = 0;
    const total = 100 * MB;
    const body = new Readable({
      async read() {
        if (sent === 0) {
          sent += block.length;
          this.push(block);
          await gotFirst; // a proxy that buffers the whole body never lets this resolve
          return;
        }
        if (sent >= total) return this.push(null);
        sent += block.length;
        this.push(block);
      },
    });
    const res = await raw(board.url, "/api/v0/storage/object/b", {
      method: "POST",
      headers: fromApp(board.url, { "content-type": "application/octet-stream", "content-length": String(total) }),
      body,
    });
    expect(res.status).toBe(200);
    const expected = await sha256Of(bytes(total));
    expect(await uploaded).toEqual(expected);
  });

  it("streams a 100 MB download: the browser has the first bytes before the upstream sends the rest", async () => {
    const expected = await sha256Of(bytes(100 * MB));
    const got = await new Promise<{ hash: string; size: number }>((resolve, reject) => {
      const u = new URL(board.url);
      http
        .get({ host: u.hostname, port: u.port, path: "/api/v0/storage/public/b/big.bin", agent: false }, (res) => {
          expect(res.headers["content-length"]).toBe(String(100 * MB));
          let first = true;
          sha256Of(
            (async function* () {
              for await (const c of res) {
                if (first) {
                  first = false;
                  releaseDownload();
                }
                yield c as Buffer;
              }
            })(),
          ).then(resolve, reject);
        })
        .on("error", reject);
    });
    expect(got).toEqual(expected);
  });
});

describe("upstream failures", () => {
  it("an upstream closing mid-answer cuts the browser's answer and the proxy lives on", async () => {
    await expect(raw(board.url, "/api/v0/storage/public/b/cut.bin")).rejects.toThrow();
    const health = await raw(board.url, "/api/health");
    expect(health.json()).toEqual({ ok: true, proxy: "up", service: "hosted", restarts: 0 });
  });

  it("an upstream's error answer goes on in the one shape only: no traceback, SQL, stack or extra field (review 55a #1)", async () => {
    const get = async (name: string) => {
      const res = await raw(board.url, `/api/v0/storage/public/b/${name}`, { headers: fromApp(board.url) });
      return { status: res.status, type: String(res.headers["content-type"]), body: JSON.parse(res.body.toString()) as Record<string, unknown>, headers: res.headers };
    };
    for (const name of ["traceback.txt", "leak.txt", "huge.txt"]) {
      const r = await get(name);
      expect(r.status).toBe(500);
      expect(r.type).toMatch(/^application\/json/);
      expect(Object.keys(r.body).sort()).toEqual(["error", "message", "subCode"]);
      expect(r.body).toMatchObject({ error: "internal_error", subCode: 0 });
      expect(r.body.message).toMatch(/failed with an error of its own \(HTTP 500\); what it said is left out/);
      expect(JSON.stringify(r.body)).not.toMatch(/srv|tenant|SELECT|Traceback|stack/);
      expect(r.headers["x-internal-host"]).toBeUndefined();
    }
    // A status the shape has no code for: 502, said so.
    expect(await get("teapot.txt")).toMatchObject({ status: 502, body: { error: "bad_gateway", message: expect.stringContaining("HTTP 418") } });
    // In the shape: its words kept, its other fields dropped.
    expect((await get("extra.txt")).body).toEqual({ error: "not_found", subCode: 2, message: "No file b/extra.txt." });
    expect((await get("busy.txt"))).toMatchObject({ status: 503, body: { error: "unavailable", message: "Resizing is busy; try again in a moment." } });
    for (const name of ["sql.txt", "path.txt", "stack.txt"]) {
      const r = await get(name);
      expect(r).toMatchObject({ status: 400, body: { error: "validation_error", subCode: 1, message: expect.stringContaining("its message is left out here, as it names its internals") } });
      expect(JSON.stringify(r.body)).not.toMatch(/SELECT|tenant|\/var\/lib|\/srv|at Object/);
    }
    // A code of its own becomes the shape's code for its status; its words, naming nothing inside, stay.
    expect((await get("own-code.txt")).body).toEqual({ error: "validation_error", subCode: 1, message: "Send a smaller w." });
    const limited = await get("limited.txt");
    expect(limited).toMatchObject({ status: 503, body: { error: "unavailable", message: expect.stringContaining("HTTP 429") } });
    expect(limited.headers["retry-after"]).toBe("5");
    const moved = await get("moved.txt");
    expect(moved).toMatchObject({ status: 502, body: { error: "bad_gateway", message: expect.stringContaining("redirect (HTTP 302)") } });
    expect(moved.headers.location).toBeUndefined();
    // Nothing where an answer is due (review 57a #3), and a 503 always says when (#4).
    const empty = await raw(board.url, "/api/v0/record/demo/empty/query", { method: "POST", headers: fromApp(board.url, { "content-type": "application/json" }), body: "{}" });
    expect(empty.status).toBe(502);
    expect(JSON.parse(empty.body.toString())).toMatchObject({ error: "bad_gateway", message: expect.stringContaining("answered HTTP 204 with nothing in it") });
    expect(await get("not-modified.txt")).toMatchObject({ status: 502, body: { message: expect.stringContaining("HTTP 304") } });
    const asked = await raw(board.url, "/api/v0/storage/public/b/not-modified.txt", { headers: fromApp(board.url, { "if-none-match": '"x"' }) });
    expect(asked.status).toBe(304);
    const bare = await get("limited-bare.txt");
    expect(bare.status).toBe(503);
    expect(bare.headers["retry-after"]).toBe("5");
    const html = await get("html404.txt");
    expect(html).toMatchObject({ status: 404, body: { error: "not_found", subCode: 2, message: expect.stringContaining("refused this (HTTP 404)") } });
    expect(JSON.stringify(html.body)).not.toMatch(/nginx|var\/www/);
  });

  it("an upstream resetting before answering is a 502 in the error shape", async () => {
    const res = await raw(board.url, "/api/v0/storage/public/b/reset.bin");
    expect(res.status).toBe(502);
    expect(res.json()).toMatchObject({ error: "bad_gateway", subCode: 8 });
  });

  it("an upstream that does not answer in time is a 504 in the error shape", async () => {
    const res = await raw(board.url, "/api/v0/storage/public/b/slow.bin");
    expect(res.status).toBe(504);
    expect(res.json()).toMatchObject({ error: "gateway_timeout", subCode: 9 });
    expect((res.json() as { message: string }).message).toMatch(/UPSTREAM_TIMEOUT_MS/);
  });

  it("an unreachable upstream is a 502 naming the cause, for /api/config too", async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const other = await startTestBaseboard({ BASE_URL: `http://127.0.0.1:${port}`, API_KEY: KEY });
    try {
      const res = await raw(other.url, "/api/v0/meta");
      expect(res.status).toBe(502);
      expect(res.json()).toMatchObject({ error: "bad_gateway", subCode: 8 });
      expect((res.json() as { message: string }).message).toMatch(/ECONNREFUSED/);
      expect((await raw(other.url, "/api/config")).status).toBe(502);
      expect(other.logs.join("\n")).not.toContain(KEY);
    } finally {
      await other.stop();
    }
  });
});
