/** Create vs update access, and the delete extension, over real HTTP (issue 3 items 2 and 6). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upload, writeBuckets, type StorageTestService, startStorageService, blobNames } from "./testing/storage-service";

let svc: StorageTestService;
beforeAll(async () => {
  svc = await startStorageService({ seed: false });
});
afterAll(() => svc.close());

describe("create and update access", () => {
  let custom: StorageTestService;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-svc-access-"));
  beforeAll(async () => {
    writeBuckets(dir, [
      { name: "create-only", permission: "public", access: ["read", "create"] },
      { name: "update-only", permission: "public", access: ["read", "update"] },
      { name: "read-only", permission: "public", access: ["read"] },
    ]);
    custom = await startStorageService({ seed: false, dataDir: dir });
  });
  afterAll(async () => {
    await custom.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a new key needs create; an existing key needs update", async () => {
    expect((await upload(custom, "create-only", "a.txt", "1")).status).toBe(200);
    const again = await upload(custom, "create-only", "a.txt", "2");
    expect(again.status).toBe(403);
    expect((await again.json()).message).toMatch(/already exists.*update access/);
    const fresh = await upload(custom, "update-only", "b.txt", "1");
    expect(fresh.status).toBe(403);
    expect((await fresh.json()).message).toMatch(/new key.*create access/);
    expect((await upload(custom, "read-only", "c.txt", "1")).status).toBe(403);
    expect(await blobNames(custom, "objects/")).toHaveLength(1);
  });

  it("delete needs update access", async () => {
    expect((await custom.call("/v0/storage/object/create-only/a.txt", { method: "DELETE" })).status).toBe(403);
  });
});

describe("delete (extension)", () => {
  it("removes every version and its files", async () => {
    await upload(svc, "public-assets", "del/me.txt", "1");
    await upload(svc, "public-assets", "del/me.txt", "2");
    const before = (await blobNames(svc, "objects/public-assets/")).length;
    const res = await svc.call("/v0/storage/object/public-assets/del/me.txt", { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ key: "del/me.txt", deletedVersions: 2 });
    expect((await blobNames(svc, "objects/public-assets/")).length).toBe(before - 2);
    expect((await fetch(`${svc.url}/v0/storage/public/public-assets/del/me.txt`)).status).toBe(404);
    expect((await svc.call("/v0/storage/object/public-assets/del/me.txt", { method: "DELETE" })).status).toBe(404);
  });

  it("takes only unversioned keys and always a key", async () => {
    const { key } = await (await upload(svc, "public-assets", "del/v.txt", "1")).json();
    const res = await svc.call(`/v0/storage/object/public-assets/${key}`, { method: "DELETE" });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/without the v\d+\/ prefix/);
    expect((await fetch(`${svc.url}/v0/storage/object/public-assets/del/v.txt`, { method: "DELETE" })).status).toBe(401);
    expect((await svc.call("/v0/storage/object/vault/x.txt", { method: "DELETE" })).status).toBe(403);
  });
});
