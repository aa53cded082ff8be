/**
 * Versions of a key and restoring one (issue 22.4) over real HTTP, on the backend and engine
 * under test: every version newest first with the sha256 of its bytes; a restore makes the old
 * bytes the newest version (a new blob, older versions kept); 404s; who may list and restore;
 * the service's change feed reports a restore as an upload.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RestoreResponse, StorageVersionsResponse } from "../../../shared/storage";
import { type StorageTestService, blobNames, sha256, startStorageService, upload, writeBuckets } from "./testing/storage-service";

let svc: StorageTestService;
beforeAll(async () => {
  svc = await startStorageService({ seed: false });
});
afterAll(() => svc?.close());

const versions = (bucket: string, key: string, headers?: Record<string, string>) => svc.call(`/v0/storage/versions/${bucket}/${key}`, headers ? { headers } : {});
const restore = (bucket: string, versionedKey: string, init: RequestInit = {}) => svc.call(`/v0/storage/restore/${bucket}/${versionedKey}`, { method: "POST", ...init });
const read = async (bucket: string, key: string) => Buffer.from(await (await svc.call(`/v0/storage/public/${bucket}/${key}`)).arrayBuffer());
const uploaded = async (bucket: string, key: string, body: Buffer | string, type?: string) => {
  const res = await upload(svc, bucket, key, body, { type });
  expect(res.status).toBe(200);
  return ((await res.json()) as { key: string }).key;
};

describe("GET /v0/storage/versions/{bucket}/{key}", () => {
  it("lists every version newest first, each with the sha256 of its bytes", async () => {
    const bodies = [Buffer.from("first version"), Buffer.from([0, 1, 2, 255, 254]), Buffer.from("third, the newest")];
    const keys: string[] = [];
    for (const b of bodies) keys.push(await uploaded("public-assets", "docs/a b/notes.txt", b, "text/plain"));
    await uploaded("public-assets", "docs/a b/notes.txt.bak", "another key");
    const res = await versions("public-assets", "docs/a%20b/notes.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as StorageVersionsResponse;
    expect(body.items.map((i) => i.versionedKey)).toEqual([...keys].reverse());
    expect(Object.keys(body.items[0]).sort()).toEqual(["contentType", "lastModified", "sha256", "size", "versionedKey"]);
    [...bodies].reverse().forEach((b, i) => {
      expect(body.items[i]).toMatchObject({ size: b.length, sha256: sha256(b), contentType: "text/plain" });
      expect(new Date(body.items[i].lastModified).toISOString()).toBe(body.items[i].lastModified);
    });
    // Each listed version reads back as exactly those bytes.
    for (const item of body.items) expect(sha256(await read("public-assets", item.versionedKey))).toBe(item.sha256);
  });

  it("is a 404 in the one error shape for a key with no version, a 400 for a versioned key", async () => {
    const res = await versions("public-assets", "docs/none.txt");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not_found", subCode: expect.any(Number), message: expect.stringContaining("docs/none.txt") });
    const key = await uploaded("public-assets", "docs/v.txt", "x");
    const versioned = await versions("public-assets", key);
    expect(versioned.status).toBe(400);
    expect((await versioned.json()).error).toBe("validation_error");
    expect((await versions("no-such-bucket", "a.txt")).status).toBe(404);
  });

  it("needs the key (even on a public bucket) and is refused on a forbidden bucket", async () => {
    await uploaded("public-assets", "docs/k.txt", "k");
    expect((await fetch(`${svc.url}/v0/storage/versions/public-assets/docs/k.txt`)).status).toBe(401);
    expect((await versions("team-files", "nothing.txt")).status).toBe(404); // limitedPublic from 127.0.0.1: readable
    const vault = await versions("vault", "x.txt");
    expect(vault.status).toBe(403);
    expect((await vault.json()).error).toBe("forbidden");
  });
});

describe("POST /v0/storage/restore/{bucket}/{versionedKey}", () => {
  it("makes an old version the newest, as a copy: the old bytes at the unversioned key, every version kept", async () => {
    const old = Buffer.from("the good old content\n".repeat(1000));
    const oldKey = await uploaded("team-files", "r/report.csv", old, "text/csv");
    await uploaded("team-files", "r/report.csv", "a bad edit", "text/csv");
    expect((await read("team-files", "r/report.csv")).toString()).toBe("a bad edit");
    const blobsBefore = await blobNames(svc, "objects/team-files/");
    const before = ((await (await versions("team-files", "r/report.csv")).json()) as StorageVersionsResponse).items;

    const res = await restore("team-files", oldKey);
    expect(res.status).toBe(200);
    const body = (await res.json()) as RestoreResponse;
    expect(Object.keys(body)).toEqual(["key"]);
    expect(body.key).toMatch(/^v\d+\/r\/report\.csv$/);
    expect(Number(body.key.split("/")[0].slice(1))).toBeGreaterThan(Number(before[0].versionedKey.split("/")[0].slice(1)));

    expect((await read("team-files", "r/report.csv")).equals(old)).toBe(true);
    expect((await read("team-files", body.key)).equals(old)).toBe(true);
    expect((await read("team-files", oldKey)).equals(old)).toBe(true);
    const after = ((await (await versions("team-files", "r/report.csv")).json()) as StorageVersionsResponse).items;
    expect(after).toHaveLength(before.length + 1);
    expect(after.slice(1)).toEqual(before);
    expect(after[0]).toMatchObject({ versionedKey: body.key, size: old.length, sha256: sha256(old), contentType: "text/csv" });
    // A blob of its own: deleting that version later cannot take the bytes of the one it came from.
    expect(await blobNames(svc, "objects/team-files/")).toHaveLength(blobsBefore.length + 1);
  });

  it("restoring the newest version adds another identical version", async () => {
    const key = await uploaded("public-assets", "r/same.txt", "same");
    const res = await restore("public-assets", key);
    expect(res.status).toBe(200);
    const items = ((await (await versions("public-assets", "r/same.txt")).json()) as StorageVersionsResponse).items;
    expect(items.map((i) => i.sha256)).toEqual([sha256("same"), sha256("same")]);
  });

  it("takes an empty JSON body too", async () => {
    const key = await uploaded("public-assets", "r/json.txt", "json");
    const res = await restore("public-assets", key, { headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(200);
  });

  it("is a 404 for a version that does not exist, a 400 for an unversioned key", async () => {
    const key = await uploaded("public-assets", "r/missing.txt", "m");
    const version = Number(key.split("/")[0].slice(1));
    const res = await restore("public-assets", `v${version - 1}/r/missing.txt`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not_found", subCode: expect.any(Number), message: expect.stringContaining("r/missing.txt") });
    expect((await restore("public-assets", `${key}x`)).status).toBe(404);
    expect((await restore("public-assets", `v1/never/there.txt`)).status).toBe(404);
    const plain = await restore("public-assets", "r/missing.txt");
    expect(plain.status).toBe(400);
    expect((await plain.json()).error).toBe("validation_error");
    expect(((await (await versions("public-assets", "r/missing.txt")).json()) as StorageVersionsResponse).items).toHaveLength(1);
  });

  it("needs the key; refused on a forbidden bucket", async () => {
    const key = await uploaded("public-assets", "r/nokey.txt", "n");
    expect((await fetch(`${svc.url}/v0/storage/restore/public-assets/${key}`, { method: "POST" })).status).toBe(401);
    const vault = await restore("vault", "v1/x.txt");
    expect(vault.status).toBe(403);
    expect((await vault.json()).error).toBe("forbidden");
  });

  it("is reported by the change feed as an upload of the key", async () => {
    const key = await uploaded("public-assets", "r/feed.txt", "feed");
    const ac = new AbortController();
    const res = await fetch(`${svc.url}/v0/events`, { headers: { "x-api-key": svc.key }, signal: ac.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = "";
    const restored = await restore("public-assets", key);
    expect(restored.status).toBe(200);
    const until = Date.now() + 5000;
    while (!text.includes("r/feed.txt") && Date.now() < until) text += new TextDecoder().decode((await reader.read()).value);
    ac.abort();
    const change = JSON.parse(/data: (.*r\/feed\.txt.*)\n/.exec(text)![1]);
    expect(change).toMatchObject({ kind: "upload", bucket: "public-assets", keys: ["r/feed.txt"], origin: "outside" });
  });
});

describe("access per bucket", () => {
  let custom: StorageTestService;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-svc-versions-"));
  beforeAll(async () => {
    writeBuckets(dir, [
      { name: "writable", permission: "public", access: ["read", "create", "update"] },
      { name: "create-only", permission: "public", access: ["read", "create"] },
      { name: "elsewhere", permission: "limitedPublic", access: ["read", "create", "update"], allowedIps: ["10.1.2.3"] },
    ]);
    custom = await startStorageService({ seed: false, dataDir: dir });
  });
  afterAll(async () => {
    await custom?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a bucket without update access lists versions but refuses a restore with 403, storing nothing", async () => {
    const res = await upload(custom, "create-only", "c.txt", "one");
    const { key } = (await res.json()) as { key: string };
    expect((await custom.call("/v0/storage/versions/create-only/c.txt")).status).toBe(200);
    const blobs = await blobNames(custom, "objects/create-only/");
    const refused = await custom.call(`/v0/storage/restore/create-only/${key}`, { method: "POST" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "forbidden", message: expect.stringContaining("update") });
    expect(await blobNames(custom, "objects/create-only/")).toEqual(blobs);
    const items = ((await (await custom.call("/v0/storage/versions/create-only/c.txt")).json()) as StorageVersionsResponse).items;
    expect(items).toHaveLength(1);
  });

  it("a limitedPublic bucket refuses both from an address it does not allow", async () => {
    expect((await custom.call("/v0/storage/versions/elsewhere/a.txt")).status).toBe(403);
    expect((await custom.call("/v0/storage/restore/elsewhere/v1/a.txt", { method: "POST" })).status).toBe(403);
  });

  it("/v0/meta advertises versions", async () => {
    const meta = (await (await custom.call("/v0/meta")).json()) as { capabilities: { versions?: boolean } };
    expect(meta.capabilities.versions).toBe(true);
  });
});
