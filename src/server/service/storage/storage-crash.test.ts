/**
 * A service killed with SIGKILL in the middle of uploads and updates (issue 3 item 7): after a
 * restart every acknowledged write is there, no row points at a missing file, and partial and
 * orphaned files are swept. The service runs as a child process, so the kill is a real one.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startServiceProcess } from "../testing/service-process";
import { afterAll, describe, expect, it } from "vitest";
import { testEngineEnv } from "../testing/test-service";
import { multipart, sha256, storageRows } from "./testing/storage-service";

const KEY = "crash-test-key-0123456789";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-svc-crash-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `src/server/service/main.ts` in its own node process and resolves with its URL. */
async function startChild(): Promise<{ child: ChildProcess; url: string }> {
  const svc = await startServiceProcess({ ...(await testEngineEnv(dataDir)), SERVICE_API_KEYS: KEY, SERVICE_SEED: "0", SERVICE_LOG_LEVEL: "warn" }, { dataDir });
  children.push(svc.child);
  return svc;
}

function post(url: string, key: string, body: Buffer): Promise<string | undefined> {
  const form = multipart([{ name: "key", value: key }, { name: "file", value: body, filename: "f.bin" }]);
  const u = new URL(url);
  return new Promise((resolve) => {
    const req = http.request(
      { host: u.hostname, port: u.port, method: "POST", path: "/v0/storage/object/public-assets", agent: false, headers: { "x-api-key": KEY, "content-type": form.contentType } },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve(res.statusCode === 200 ? JSON.parse(text).key : undefined));
        res.on("error", () => resolve(undefined));
      },
    );
    req.on("error", () => resolve(undefined));
    req.end(form.body);
  });
}

/** A big upload sent slowly, so it is mid-body when the process dies. */
function slowUpload(url: string, key: string): void {
  const u = new URL(url);
  const boundary = "slowboundary";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\n${key}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s"\r\n\r\n`;
  const req = http.request({
    host: u.hostname,
    port: u.port,
    method: "POST",
    path: "/v0/storage/object/public-assets",
    agent: false,
    headers: { "x-api-key": KEY, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(head.length + 50_000_000) },
  });
  req.on("error", () => undefined);
  req.write(head);
  const timer = setInterval(() => {
    if (req.destroyed) clearInterval(timer);
    else req.write(Buffer.alloc(64 * 1024, 3));
  }, 10);
}

describe("SIGKILL in the middle of uploads and updates", () => {
  it("keeps every acknowledged write, and leaves no dangling row, partial file or orphan", async () => {
    const first = await startChild();
    const acked = new Map<string, string>(); // versioned key -> sha256
    for (let i = 0; i < 3; i++) slowUpload(first.url, `slow/${i}.bin`);

    let stop = false;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        // New keys and updates of existing ones, interleaved.
        const key = i % 2 === 0 ? `w${w}/new-${i}.bin` : `w${w}/updated.bin`;
        const body = Buffer.alloc(20_000 + ((i * 997) % 30_000), (w * 31 + i) % 256);
        const versioned = await post(first.url, key, body);
        if (versioned) acked.set(versioned, sha256(body));
      }
    });
    const tmp = path.join(dataDir, "storage", "tmp");
    const until = Date.now() + 10_000;
    while ((acked.size < 40 || fs.readdirSync(tmp).length < 3) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(fs.readdirSync(tmp).length).toBeGreaterThan(0);
    first.child.kill("SIGKILL");
    stop = true;
    await Promise.all(writers);
    await new Promise((r) => first.child.once("exit", r));
    expect(acked.size).toBeGreaterThanOrEqual(40);

    // What a crash between "file renamed" and "row written" leaves: an object file with no row.
    const objects = path.join(dataDir, "storage", "objects", "public-assets");
    fs.writeFileSync(path.join(objects, "00000000-orphan"), "orphan");

    const second = await startChild();
    try {
      expect(fs.readdirSync(tmp)).toEqual([]);
      expect(fs.existsSync(path.join(objects, "00000000-orphan"))).toBe(false);

      for (const [versioned, hash] of acked) {
        const res = await fetch(`${second.url}/v0/storage/public/public-assets/${versioned}`);
        expect(res.status, versioned).toBe(200);
        expect(res.headers.get("etag")).toBe(`"${hash}"`);
        expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(hash);
      }

      const slow = await (await fetch(`${second.url}/v0/storage/list/public-assets?prefix=slow/`, { headers: { "x-api-key": KEY } })).json();
      expect(slow.items).toEqual([]);
      // And the service takes writes again.
      expect(await post(second.url, "after/crash.txt", Buffer.from("fine"))).toMatch(/^v\d+\/after\/crash\.txt$/);
    } finally {
      second.child.kill("SIGTERM");
      await new Promise((r) => second.child.once("exit", r));
    }
    // Rows and files agree (read once the service let go of the database file).
    const rows = await storageRows(dataDir, "public-assets");
    const files = new Set(fs.readdirSync(objects));
    for (const row of rows) {
      expect(files.has(row.file), `row points at missing ${row.file}`).toBe(true);
      expect(fs.statSync(path.join(objects, row.file)).size).toBe(row.size);
    }
    expect(files.size).toBe(rows.length);
  });
});
