/**
 * Resumable uploads (issue 22.5) over real HTTP: parts in any order, a part sent again, the
 * acknowledged parts listed, completion giving the right bytes, sha256 and type, a service
 * restart between parts, abort, access and size refusals in the one error shape, a session
 * answering only the owner who started it. Runs on disk
 * and on S3 (s3rver), on DuckDB and on PostgreSQL, where the session state lives.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshS3Bucket } from "../blobs/testing/s3-test-bucket";
import { type ServiceConfig, parseServiceConfig } from "../config";
import { openEngine } from "../engines/open";
import { testEngineConfig } from "../testing/test-service";
import { sql } from "kysely";
import { UPLOAD_OWNER_HEADER } from "../../../shared/storage";
import { UPLOADS } from "./metadata-uploads";
import { BACKEND, type StorageTestService, blobNames, rawRequest, sha256, startStorageService, writeBuckets } from "./testing/storage-service";

const MiB = 1024 * 1024;
const PART = 8 * MiB;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-svc-resume-"));
let blobStore: ServiceConfig["blobStore"];
let svc: StorageTestService;

beforeAll(async () => {
  writeBuckets(dir, [
    { name: "files", permission: "public", access: ["read", "create", "update"] },
    { name: "read-only", permission: "public", access: ["read"] },
    { name: "create-only", permission: "public", access: ["read", "create"] },
  ]);
  blobStore = BACKEND === "s3" ? await freshS3Bucket() : { kind: "disk" };
  svc = await startStorageService({ seed: false, dataDir: dir, blobStore, maxUploadBytes: 64 * MiB });
});
afterAll(async () => {
  await svc.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const start = (bucket: string, body: unknown, key = svc.key) =>
  fetch(`${svc.url}/v0/storage/uploads/${bucket}`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
const putPart = (bucket: string, id: string, n: number, bytes: Buffer) =>
  fetch(`${svc.url}/v0/storage/uploads/${bucket}/${id}/parts/${n}`, { method: "PUT", headers: { "x-api-key": svc.key, "content-type": "application/octet-stream" }, body: new Uint8Array(bytes) });
const status = (bucket: string, id: string) => svc.call(`/v0/storage/uploads/${bucket}/${id}`);
const complete = (bucket: string, id: string) => svc.call(`/v0/storage/uploads/${bucket}/${id}/complete`, { method: "POST" });
const part = (file: Buffer, n: number) => file.subarray((n - 1) * PART, n * PART);

async function begin(key: string, size: number, contentType?: string): Promise<string> {
  const res = await start("files", { key, size, ...(contentType ? { contentType } : {}) });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.partSize).toBe(PART);
  return body.id;
}

describe("resumable uploads", () => {
  it("is advertised in /v0/meta", async () => {
    const meta = await (await svc.call("/v0/meta")).json();
    expect(meta.capabilities.resumable).toBe(true);
  });

  it("takes parts in any order, a part sent again, lists what is acknowledged, and completes to the right bytes", async () => {
    const file = randomBytes(20 * MiB + 12_345);
    const id = await begin("big/data.bin", file.length, "application/x-custom");
    expect(await (await status("files", id)).json()).toEqual({ key: "big/data.bin", size: file.length, partSize: PART, parts: [] });

    expect((await putPart("files", id, 3, part(file, 3))).status).toBe(200);
    const first = await putPart("files", id, 1, part(file, 1));
    expect(await first.json()).toEqual({ n: 1, size: PART });
    expect((await (await status("files", id)).json()).parts).toEqual([1, 3]);

    // Sent again (a retry after a lost answer): replaces it, still one acknowledged part 1.
    expect((await putPart("files", id, 1, part(file, 1))).status).toBe(200);
    const early = await complete("files", id);
    expect(early.status).toBe(400);
    expect(await early.json()).toMatchObject({ error: "validation_error", message: expect.stringMatching(/missing part 2 of 3/) });

    expect((await putPart("files", id, 2, part(file, 2))).status).toBe(200);
    expect((await (await status("files", id)).json()).parts).toEqual([1, 2, 3]);
    const done = await complete("files", id);
    expect(done.status).toBe(200);
    const { key, size } = await done.json();
    expect(key).toMatch(/^v\d{13,}\/big\/data\.bin$/);
    expect(size).toBe(file.length);

    const got = await fetch(`${svc.url}/v0/storage/public/files/${key}`);
    expect(got.status).toBe(200);
    expect(got.headers.get("etag")).toBe(`"${sha256(file)}"`);
    expect(got.headers.get("content-type")).toBe("application/x-custom");
    expect(sha256(Buffer.from(await got.arrayBuffer()))).toBe(sha256(file));

    // Completing again (the answer was lost) answers the same version; the parts are gone.
    expect(await (await complete("files", id)).json()).toEqual({ key, size });
    expect(await blobNames(svc, `uploads/files/${id}/`)).toEqual([]);
    expect(await blobNames(svc, "objects/files/")).toHaveLength(1);
  });

  it("goes on after a service restart between parts", async () => {
    const file = randomBytes(PART + 1000);
    const id = await begin("restart/r.bin", file.length);
    expect((await putPart("files", id, 1, part(file, 1))).status).toBe(200);
    await svc.close();
    svc = await startStorageService({ seed: false, dataDir: dir, blobStore, maxUploadBytes: 64 * MiB });
    expect((await (await status("files", id)).json()).parts).toEqual([1]);
    expect((await putPart("files", id, 2, part(file, 2))).status).toBe(200);
    const { key } = await (await complete("files", id)).json();
    const got = await fetch(`${svc.url}/v0/storage/public/files/${key}`);
    expect(Buffer.from(await got.arrayBuffer()).equals(file)).toBe(true);
  });

  it("keeps nothing of a part cut off mid-body; the part sent again completes the file", async () => {
    const file = randomBytes(PART + 77);
    const id = await begin("cut.bin", file.length);
    const u = new URL(svc.url);
    // Half of part 1, then the connection drops (a network failure, a page reload).
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: u.hostname,
        port: u.port,
        method: "PUT",
        path: `/v0/storage/uploads/files/${id}/parts/1`,
        headers: { "x-api-key": svc.key, "content-type": "application/octet-stream", "content-length": String(PART) },
      });
      req.on("error", () => resolve());
      req.write(part(file, 1).subarray(0, PART / 2), () => setTimeout(() => req.destroy(), 100));
      req.on("close", () => resolve());
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await (await status("files", id)).json()).parts).toEqual([]);
    expect(await blobNames(svc, `uploads/files/${id}/`)).toEqual([]);
    if (svc.backend === "disk") expect(fs.readdirSync(path.join(dir, "storage", "tmp"))).toEqual([]);
    for (const n of [1, 2]) expect((await putPart("files", id, n, part(file, n))).status).toBe(200);
    const { key } = await (await complete("files", id)).json();
    const got = await fetch(`${svc.url}/v0/storage/public/files/${key}`);
    expect(Buffer.from(await got.arrayBuffer()).equals(file)).toBe(true);
  });

  it("a part still being sent holds completion back (409), and the file then holds that part (review 49a #3)", async () => {
    const file = randomBytes(PART + 99);
    const id = await begin("race.bin", file.length);
    for (const n of [1, 2]) expect((await putPart("files", id, n, part(file, n))).status).toBe(200);
    // Part 1 sent again with other bytes, slowly: its first half, then a pause.
    const other = randomBytes(PART);
    const u = new URL(svc.url);
    let release!: () => void;
    const sent = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: u.hostname, port: u.port, method: "PUT", path: `/v0/storage/uploads/files/${id}/parts/1`, headers: { "x-api-key": svc.key, "content-type": "application/octet-stream", "content-length": String(PART) } },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c)).on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write(other.subarray(0, PART / 2));
      release = () => req.end(other.subarray(PART / 2));
    });
    await new Promise((r) => setTimeout(r, 300));
    const early = await complete("files", id);
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe('A part of the upload of "race.bin" is still being sent: complete it once that part is stored.');
    release();
    expect((await sent).status).toBe(200);
    const { key } = await (await complete("files", id)).json();
    const got = Buffer.from(await (await fetch(`${svc.url}/v0/storage/public/files/${key}`)).arrayBuffer());
    expect(got.equals(Buffer.concat([other, part(file, 2)]))).toBe(true);
    // Written as numbers are written: "01" is not part 1.
    const id2 = await begin("zero.bin", 10);
    expect((await svc.call(`/v0/storage/uploads/files/${id2}/parts/01`, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: Buffer.alloc(10) })).status).toBe(400);
  });

  it("sweeps a session idle for over a day, with its parts, at the next start", async () => {
    const file = randomBytes(PART + 5);
    const idle = await begin("idle.bin", file.length);
    const fresh = await begin("fresh.bin", file.length);
    for (const id of [idle, fresh]) expect((await putPart("files", id, 1, part(file, 1))).status).toBe(200);
    await svc.close();
    // Two days ago, as far as the session's row says (the database is the service's own, opened while it is stopped).
    const engine = await openEngine({ ...parseServiceConfig([], {}), dataDir: dir, ...(await testEngineConfig(dir)) });
    try {
      const past = Date.now() - 48 * 3600 * 1000;
      await engine.write((tx) => tx.run(engine.builder.updateTable(UPLOADS).set({ updated_at: past }).where("id", "=", idle).compile()));
    } finally {
      await engine.close();
    }
    svc = await startStorageService({ seed: false, dataDir: dir, blobStore, maxUploadBytes: 64 * MiB });
    expect((await status("files", idle)).status).toBe(404);
    expect(await blobNames(svc, `uploads/files/${idle}/`)).toEqual([]);
    expect((await (await status("files", fresh)).json()).parts).toEqual([1]);
    expect(await blobNames(svc, `uploads/files/${fresh}/`)).toHaveLength(1);
  });

  it("answers only the owner who started a session (the proxy's tag), or a caller naming none; nothing of another's part is stored", async () => {
    const as = (who: string | undefined) => ({ "x-api-key": svc.key, ...(who ? { [UPLOAD_OWNER_HEADER]: who } : {}) });
    const file = randomBytes(PART + 20);
    const res = await fetch(`${svc.url}/v0/storage/uploads/files`, {
      method: "POST",
      headers: { ...as("person:ed1@ex.com"), "content-type": "application/json" },
      body: JSON.stringify({ key: "owned.bin", size: file.length }),
    });
    const { id } = await res.json();
    const url = `${svc.url}/v0/storage/uploads/files/${id}`;
    const other = as("person:ed2@ex.com");
    const refused = [
      await fetch(`${url}/parts/1`, { method: "PUT", headers: { ...other, "content-type": "application/octet-stream" }, body: new Uint8Array(part(file, 1)) }),
      await fetch(url, { headers: other }),
      await fetch(`${url}/complete`, { method: "POST", headers: other }),
      await fetch(url, { method: "DELETE", headers: other }),
    ];
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(await r.json()).toMatchObject({ error: "forbidden", message: expect.stringMatching(/started by someone else.*Start an upload of your own/) });
    }
    expect(await blobNames(svc, `uploads/files/${id}/`)).toEqual([]);
    expect((await fetch(`${url}/parts/1`, { method: "PUT", headers: { ...as("person:ed1@ex.com"), "content-type": "application/octet-stream" }, body: new Uint8Array(part(file, 1)) })).status).toBe(200);
    // An API-key client naming nobody may do anything, as everywhere else.
    expect((await putPart("files", id, 2, part(file, 2))).status).toBe(200);
    const done = await fetch(`${url}/complete`, { method: "POST", headers: as("person:ed1@ex.com") });
    expect(done.status).toBe(200);
    const got = await fetch(`${svc.url}/v0/storage/public/files/${(await done.json()).key}`);
    expect(Buffer.from(await got.arrayBuffer()).equals(file)).toBe(true);
  });

  it("keeps sessions of a table made before sessions had owners, and adds the column", async () => {
    const before = await begin("pre-owner.bin", 5);
    await svc.close();
    const engine = await openEngine({ ...parseServiceConfig([], {}), dataDir: dir, ...(await testEngineConfig(dir)) });
    try {
      await engine.write((tx) => tx.run(sql`alter table ${sql.table(UPLOADS)} drop column owner`.compile(engine.builder)));
    } finally {
      await engine.close();
    }
    svc = await startStorageService({ seed: false, dataDir: dir, blobStore, maxUploadBytes: 64 * MiB });
    const old = await fetch(`${svc.url}/v0/storage/uploads/files/${before}`, { headers: { "x-api-key": svc.key, [UPLOAD_OWNER_HEADER]: "person:anyone@ex.com" } });
    expect(old.status).toBe(200);
    const res = await fetch(`${svc.url}/v0/storage/uploads/files`, {
      method: "POST",
      headers: { "x-api-key": svc.key, [UPLOAD_OWNER_HEADER]: "person:a@ex.com", "content-type": "application/json" },
      body: JSON.stringify({ key: "post-owner.bin", size: 5 }),
    });
    const { id } = await res.json();
    expect((await fetch(`${svc.url}/v0/storage/uploads/files/${id}`, { headers: { "x-api-key": svc.key, [UPLOAD_OWNER_HEADER]: "person:b@ex.com" } })).status).toBe(403);
  });

  it("completes an empty file with no parts, its type guessed from the key", async () => {
    const id = await begin("empty.txt", 0);
    const { key } = await (await complete("files", id)).json();
    const got = await fetch(`${svc.url}/v0/storage/public/files/${key}`);
    expect(got.headers.get("content-length")).toBe("0");
    expect(got.headers.get("content-type")).toBe("text/plain");
  });

  it("aborts: the session and its stored parts are gone", async () => {
    const file = randomBytes(PART + 10);
    const id = await begin("aborted.bin", file.length);
    expect((await putPart("files", id, 1, part(file, 1))).status).toBe(200);
    expect(await blobNames(svc, `uploads/files/${id}/`)).toHaveLength(1);
    const res = await svc.call(`/v0/storage/uploads/files/${id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await blobNames(svc, `uploads/files/${id}/`)).toEqual([]);
    const gone = await status("files", id);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: "not_found", message: expect.stringMatching(/start the upload again/) });
    expect((await putPart("files", id, 2, Buffer.alloc(10))).status).toBe(404);
  });

  it("refuses a part of the wrong size with a clear 400, and stores nothing", async () => {
    const id = await begin("sizes.bin", PART + 100);
    const short = await putPart("files", id, 1, Buffer.alloc(1000));
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({ error: "validation_error", subCode: 1, message: expect.stringMatching(/Part 1 of 2 must be exactly 8388608 bytes.*this one is 1000/) });
    const last = await putPart("files", id, 2, Buffer.alloc(101));
    expect(last.status).toBe(400);
    expect((await last.json()).message).toMatch(/Part 2 of 2 must be exactly 100 bytes/);
    // Chunked (no Content-Length): found out while storing, refused the same way.
    const body = Buffer.alloc(150);
    const chunked = await rawRequest(svc, {
      method: "PUT",
      path: `/v0/storage/uploads/files/${id}/parts/2`,
      headers: { "x-api-key": svc.key, "content-type": "application/octet-stream", "transfer-encoding": "chunked" },
      body,
    });
    expect(chunked.status).toBe(400);
    expect(JSON.parse(chunked.body.toString()).message).toMatch(/must be exactly 100 bytes/);
    // A whole part and one byte more, chunked: the same words, not "interrupted" (review 57a #5:
    // the store stops reading at the part's length, which looked like a client breaking off).
    const over = await rawRequest(svc, {
      method: "PUT",
      path: `/v0/storage/uploads/files/${id}/parts/1`,
      headers: { "x-api-key": svc.key, "content-type": "application/octet-stream", "transfer-encoding": "chunked" },
      body: Buffer.alloc(PART + 1),
    });
    expect(over.status).toBe(400);
    expect(JSON.parse(over.body.toString()).message).toMatch(/Part 1 of 2 must be exactly 8388608 bytes/);
    // An acknowledged part sent again with a wrong declared length is refused before anything
    // is stored: it stays acknowledged. Sent again chunked and short, it is acknowledged no more.
    expect((await putPart("files", id, 2, Buffer.alloc(100, 2))).status).toBe(200);
    expect((await putPart("files", id, 2, Buffer.alloc(99))).status).toBe(400);
    expect((await (await status("files", id)).json()).parts).toEqual([2]);
    const shortChunked = await rawRequest(svc, {
      method: "PUT",
      path: `/v0/storage/uploads/files/${id}/parts/2`,
      headers: { "x-api-key": svc.key, "content-type": "application/octet-stream", "transfer-encoding": "chunked" },
      body: Buffer.alloc(99),
    });
    expect(shortChunked.status).toBe(400);
    const out = await putPart("files", id, 3, Buffer.alloc(1));
    expect(out.status).toBe(400);
    expect((await out.json()).message).toMatch(/run from 1 to 2/);
    expect((await (await status("files", id)).json()).parts).toEqual([]);
    expect(await blobNames(svc, `uploads/files/${id}/`)).toEqual([]);
  });

  it("takes a part sent with no content-type or a form's, and refuses one sent as JSON", async () => {
    const id = await begin("types.bin", 6);
    const bare = await rawRequest(svc, { method: "PUT", path: `/v0/storage/uploads/files/${id}/parts/1`, headers: { "x-api-key": svc.key, "content-length": "6" }, body: "abcdef" });
    expect(bare.status, bare.body.toString()).toBe(200);
    const form = await rawRequest(svc, {
      method: "PUT",
      path: `/v0/storage/uploads/files/${id}/parts/1`,
      headers: { "x-api-key": svc.key, "content-type": "application/x-www-form-urlencoded", "content-length": "6" },
      body: "abcdef",
    });
    expect(form.status, form.body.toString()).toBe(200);
    const asJson = await rawRequest(svc, {
      method: "PUT",
      path: `/v0/storage/uploads/files/${id}/parts/1`,
      headers: { "x-api-key": svc.key, "content-type": "application/json", "content-length": "6" },
      body: '"abcd"',
    });
    expect(asJson.status).toBe(400);
    expect(JSON.parse(asJson.body.toString()).message).toMatch(/raw body/);
    const { key } = await (await complete("files", id)).json();
    expect(await (await fetch(`${svc.url}/v0/storage/public/files/${key}`)).text()).toBe("abcdef");
  });

  it("follows the bucket's access like a one-request upload", async () => {
    const ro = await start("read-only", { key: "a.bin", size: 10 });
    expect(ro.status).toBe(403);
    expect(await ro.json()).toMatchObject({ error: "forbidden", message: expect.stringMatching(/does not grant/) });
    const id = (await (await start("create-only", { key: "once.txt", size: 2 })).json()).id;
    expect((await putPart("create-only", id, 1, Buffer.from("hi"))).status).toBe(200);
    expect((await complete("create-only", id)).status).toBe(200);
    const again = await start("create-only", { key: "once.txt", size: 2 });
    expect(again.status).toBe(403);
    expect((await again.json()).message).toMatch(/already exists.*update access/);
    // A session of one bucket is not found under another.
    expect((await status("files", id)).status).toBe(404);
    expect((await start("files", { key: "k", size: 1 }, "wrong-key")).status).toBe(401);
  });

  it("refuses a bad start in the one error shape", async () => {
    const over = await start("files", { key: "huge.bin", size: 65 * MiB });
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ error: "payload_too_large", message: expect.stringMatching(/SERVICE_MAX_UPLOAD_BYTES/) });
    // A whole number past any file's size is over the limit as well, not "not a whole number" (review 30a #5).
    for (const size of [2 ** 53, 1e18]) {
      const past = await start("files", { key: "huge.bin", size });
      expect(past.status, String(size)).toBe(413);
      expect((await past.json()).message).toMatch(/over this service's upload limit/);
    }
    const bad = [
      { size: 1 },
      { key: "a", size: -1 },
      { key: "a", size: 1.5 },
      { key: "", size: 1 },
      { key: "a", size: 1, contentType: 5 },
      // Since stop 41: said, not silently replaced by a guess or ignored.
      { key: "a", size: 1, contentType: "text/plain\r\nX-Evil: 1" },
      { key: "a", size: 1, contentType: "a".repeat(255) },
      { key: "a", size: 10, foo: 1 },
    ];
    for (const body of bad) {
      const res = await start("files", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const { error, message } = await res.json();
      expect(error).toBe("validation_error");
      if ("foo" in body) expect(message).toMatch(/Unknown property "foo"/);
      if (typeof body.contentType === "string") expect(message).toMatch(/contentType must be a media type/);
    }
    expect((await start("files", { key: "typed.txt", size: 1, contentType: "text/plain; charset=utf-8" })).status).toBe(200);
    expect((await status("files", "not-a-session")).status).toBe(404);
  });
});
