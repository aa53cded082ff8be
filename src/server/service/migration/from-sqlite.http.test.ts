/**
 * A DATA_DIR written by the SQLite-based version is migrated on the first start, once: every
 * Record (types intact), the registry and the storage metadata arrive, the old file is kept
 * aside, and a second start changes nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startTestService } from "../testing/test-service";
import { OLD_OBJECT, OLD_ROWS, writeSqliteDataDir } from "./testing/sqlite-fixture";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-migrate-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function everything(svc: Awaited<ReturnType<typeof startTestService>>) {
  const res = await svc.call("/v0/record/legacy/people/query", { json: { limit: 10_000 } });
  expect(res.status).toBe(200);
  return (await res.json()) as { items: Record<string, unknown>[]; count: number };
}

describe("migration from a SQLite data directory", () => {
  it("copies Records, registry and storage metadata once, and keeps the old file aside", async () => {
    writeSqliteDataDir(dataDir);
    const svc = await startTestService({ dataDir, seed: true });
    try {
      const { items, count } = await everything(svc);
      expect(count).toBe(OLD_ROWS.length);
      expect(items).toEqual(OLD_ROWS);
      const fields = await (await svc.call("/v0/record/legacy/people/fields")).json();
      expect(fields.items.map((f: { key: string; type: string }) => `${f.key}:${f.type}`)).toEqual(["id:text", "age:number", "active:boolean", "born:date", "seen:datetime", "tags:json"]);
      // Seeded once before: no sample tables are added to a migrated directory.
      const meta = await (await svc.call("/v0/meta")).json();
      expect(meta.databases.map((d: { id: string }) => d.id)).toEqual(["legacy"]);
      const file = await fetch(`${svc.url}/v0/storage/public/${OLD_OBJECT.bucket}/${OLD_OBJECT.key}`);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe(OLD_OBJECT.content);
      // A new upload gets a version above the migrated one.
      const form = new FormData();
      form.append("key", OLD_OBJECT.key);
      form.append("file", new Blob(["newer"]), "x.txt");
      const up = await svc.call(`/v0/storage/object/${OLD_OBJECT.bucket}`, { method: "POST", body: form });
      expect(up.status).toBe(200);
      expect(Number(/^v(\d+)\//.exec((await up.json()).key)![1])).toBeGreaterThan(OLD_OBJECT.version);
    } finally {
      await svc.close();
    }
    expect(fs.existsSync(path.join(dataDir, "baseboard.sqlite"))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "baseboard.sqlite.migrated"))).toBe(true);

    const again = await startTestService({ dataDir, seed: true });
    try {
      const { items } = await everything(again);
      expect(items).toEqual(OLD_ROWS);
    } finally {
      await again.close();
    }
  });
});
