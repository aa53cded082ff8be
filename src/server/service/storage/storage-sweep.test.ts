/**
 * Start-up sweep (issue 12 item 5), on the backend under test: what a crashed process left
 * behind (an unfinished write, a blob without a row, a row whose blob is gone, a variant of a
 * version that no longer exists) is gone after a restart, and everything acknowledged is intact.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { openBlobStore } from "../blobs/open";
import type { BlobStoreConfig } from "../blobs/storage-url";
import { freshS3Bucket } from "../blobs/testing/s3-test-bucket";
import { BACKEND, blobNames, startStorageService, type StorageTestService, tmpDir, upload } from "./testing/storage-service";

const open: StorageTestService[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of open) await s.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("start-up sweep", () => {
  it("removes unfinished writes, blobs without rows, rows without blobs and stale variants; keeps the rest", async () => {
    const blobStore: BlobStoreConfig = BACKEND === "s3" ? await freshS3Bucket() : { kind: "disk" };
    // A data directory of the test's own: a service started on one leaves it (and its database) behind.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-sweep-"));
    dirs.push(dataDir);
    const first = await startStorageService({ blobStore, sweepGraceSeconds: 0, dataDir });
    open.push(first);
    expect((await upload(first, "public-assets", "keep.txt", "kept")).status).toBe(200);
    const before = await blobNames(first, "objects/public-assets/");
    expect((await upload(first, "public-assets", "lost.txt", "its blob goes missing")).status).toBe(200);
    const lostBlob = (await blobNames(first, "objects/public-assets/")).find((n) => !before.includes(n))!;
    await first.close();
    open.pop();

    // What a crash leaves: written straight into the store, as a dying process would have.
    const blobs = openBlobStore(blobStore, dataDir);
    await blobs.put("objects/public-assets/orphan-without-a-row", Readable.from([Buffer.from("orphan")]));
    await blobs.put(`variants/public-assets/no-such-version/64x0.webp`, Readable.from([Buffer.from("stale variant")]));
    await blobs.delete([lostBlob]);
    await blobs.close();
    // An unfinished write. (On S3 that is a multipart upload never completed, which the sweep
    // aborts with ListMultipartUploads; s3rver implements neither listing them nor lifecycle
    // rules, so only the disk case can be shown here.)
    if (blobStore.kind === "disk") fs.writeFileSync(path.join(dataDir, "storage", "tmp", "crashed.part"), "half");

    const second = await startStorageService({ blobStore, sweepGraceSeconds: 0, dataDir });
    open.push(second);
    const objects = await blobNames(second, "objects/public-assets/");
      expect(objects).not.toContain("objects/public-assets/orphan-without-a-row");
      expect(objects).toEqual(before);
      expect(await blobNames(second, "variants/")).toEqual([]);
      if (blobStore.kind === "disk") expect(fs.readdirSync(tmpDir(second))).toEqual([]);
      // The row whose blob was gone is gone too: a 404, not a 500, and not listed.
      expect((await fetch(`${second.url}/v0/storage/public/public-assets/lost.txt`)).status).toBe(404);
      const list = (await (await second.call("/v0/storage/list/public-assets")).json()) as { items: { key: string }[] };
      expect(list.items.map((i) => i.key).filter((k) => k.endsWith("lost.txt"))).toEqual([]);
      const kept = await fetch(`${second.url}/v0/storage/public/public-assets/keep.txt`);
      expect(kept.status).toBe(200);
      expect(await kept.text()).toBe("kept");
  });

  it("a file store that does not match the database wholesale is not repaired: nothing removed, and said (review 56a #1)", async () => {
    const blobStore: BlobStoreConfig = BACKEND === "s3" ? await freshS3Bucket() : { kind: "disk" };
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-sweep-mismatch-"));
    dirs.push(dataDir);
    const first = await startStorageService({ blobStore, sweepGraceSeconds: 0, dataDir });
    open.push(first);
    for (let i = 0; i < 6; i++) expect((await upload(first, "public-assets", `mismatch/f${i}.txt`, `file ${i}`)).status).toBe(200);
    const listed = async (svc: StorageTestService) => ((await (await svc.call("/v0/storage/search/public-assets?q=mismatch")).json()) as { items: { key: string }[] }).items.length;
    expect(await listed(first)).toBe(6);
    await first.close();
    open.pop();

    // Every stored file away (a volume not mounted, another instance's empty DATA_DIR): kept aside.
    const blobs = openBlobStore(blobStore, dataDir);
    const aside = new Map<string, Buffer>();
    for await (const b of blobs.list("objects/")) {
      const chunks: Buffer[] = [];
      for await (const c of await blobs.get(b.name)) chunks.push(c as Buffer);
      aside.set(b.name, Buffer.concat(chunks));
    }
    expect(aside.size).toBeGreaterThanOrEqual(6);
    await blobs.delete([...aside.keys()]);

    const second = await startStorageService({ blobStore, sweepGraceSeconds: 0, dataDir });
    open.push(second);
    // The rows stayed, though their bytes are not there.
    expect(await listed(second)).toBe(6);
    await second.close();
    open.pop();

    // The bytes back, as when the right volume is mounted: every file reads again, none lost.
    for (const [name, bytes] of aside) await blobs.put(name, Readable.from([bytes]));
    await blobs.close();
    const third = await startStorageService({ blobStore, sweepGraceSeconds: 0, dataDir });
    open.push(third);
    expect(await listed(third)).toBe(6);
    const one = await fetch(`${third.url}/v0/storage/public/public-assets/mismatch/f3.txt`);
    expect(one.status).toBe(200);
    expect(await one.text()).toBe("file 3");
  });
});
