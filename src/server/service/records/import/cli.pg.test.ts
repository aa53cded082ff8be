/**
 * `npm run import` against PostgreSQL (issue 11 item 3): the real command with DATABASE_URL
 * creates a Table, then updates-or-inserts by primary key; a bad row imports nothing and names
 * its line. Read back through a service on the same database.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { commandArgs } from "../../testing/service-entry";
import { createTestDatabase, type TestDatabase } from "../../engines/postgres/testing/test-database";
import { type ServiceProcess, startServiceProcess } from "../../testing/service-process";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../../../../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-import-cli-"));
let db: TestDatabase;
let svc: ServiceProcess | undefined;

beforeAll(async () => {
  db = await createTestDatabase(inject("pgAdminUrl"));
});
afterAll(async () => {
  await svc?.stop();
  await db?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function importFile(name: string, text: string, ...args: string[]) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const env = { ...process.env, DATABASE_URL: db.url, DATA_DIR: dir };
  return run(process.execPath, [...commandArgs("service/records/import/cli"), file, "--table", "ops/items", ...args], { cwd: ROOT, env }).catch(
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

describe("npm run import on PostgreSQL", () => {
  it("creates, then updates or inserts by primary key; a bad row imports nothing", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `k${i},${i},${i % 2 === 0}`).join("\n");
    const first = await importFile("a.csv", `sku,qty,active\n${rows}\n`, "--primary-key", "sku");
    expect(first.stdout).toMatch(/^Created ops\/items: 3,000 inserted, 0 updated/);
    const second = await importFile("b.csv", "sku,qty\nk1,100\nnew,7\n");
    expect(second.stdout).toMatch(/^Updated ops\/items: 1 inserted, 1 updated/);
    const bad = await importFile("c.csv", "sku,qty\nk2,200\nk3,lots\n");
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/^Nothing was imported: line 3: /m) });

    svc = await startServiceProcess({ DATABASE_URL: db.url, DATA_DIR: dir, SERVICE_SEED: "0" });
    const query = async (sku: string) =>
      ((await (await svc!.call("/v0/record/ops/items/query", { json: { filter: { and: [{ key: "sku", operator: "equal", value: sku }] } } })).json()) as { items: unknown[] }).items;
    expect(await query("k1")).toEqual([{ sku: "k1", qty: 100, active: false }]);
    expect(await query("new")).toEqual([{ sku: "new", qty: 7, active: null }]);
    expect(await query("k2")).toEqual([{ sku: "k2", qty: 2, active: true }]);
    const all = (await (await svc.call("/v0/record/ops/items/query", { json: { limit: 1 } })).json()) as { count: number };
    expect(all.count).toBe(3001);
  });
});
