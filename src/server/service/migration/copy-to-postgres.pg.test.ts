/**
 * `npm run copy-to-postgres` (issue 11 item 6): a data directory of the embedded engine, with
 * the sample tables, an imported Table of every Field type and stored files, copied into an
 * empty PostgreSQL database by the real command; a service on PostgreSQL and the same
 * directory then answers exactly as the embedded one did. A second copy is refused.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../engines/postgres/testing/test-database";
import { startServiceProcess } from "../testing/service-process";
import { startTestService, type TestService } from "../testing/test-service";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../../../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-copy-"));
let db: TestDatabase | undefined;
afterAll(async () => {
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const TABLES = ["demo/employees", "demo/departments", "shop/things"];

async function snapshot(call: TestService["call"]): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const t of TABLES) {
    out[t] = await (await call(`/v0/record/${t}/query`, { json: { limit: 5000 } })).json();
    out[`${t} fields`] = await (await call(`/v0/record/${t}/fields`)).json();
  }
  out.list = await (await call("/v0/storage/list/public-assets")).json();
  return out;
}

describe("copying an embedded data directory into PostgreSQL", () => {
  it("copies Tables, Records and storage metadata; the stored files keep working", async () => {
    const embedded = await startTestService({ dataDir, seed: true, postgres: undefined });
    let before: unknown;
    const versioned: string[] = [];
    try {
      const csv = 'id,n,ok,day,at,name,doc\n1,1.5,true,2024-01-02,2024-01-02T03:04:05Z,Zoë,\n2,,false,,,b,"{""a"":[1,2]}"\n';
      const imported = await embedded.call("/v0/record/shop/things/import?primaryKey=id&type=doc:json", { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
      expect(imported.status, await imported.clone().text()).toBe(200);
      for (const text of ["first", "second"]) {
        const form = new FormData();
        form.append("key", "docs/a.txt");
        form.append("file", new Blob([text], { type: "text/plain" }), "a.txt");
        const res = await embedded.call("/v0/storage/object/public-assets", { method: "POST", body: form });
        versioned.push(((await res.json()) as { key: string }).key);
      }
      before = await snapshot(embedded.call);
    } finally {
      await embedded.close();
    }

    db = await createTestDatabase(inject("pgAdminUrl"));
    const env = { ...process.env, DATABASE_URL: db.url, DATA_DIR: dataDir };
    const copied = await run(process.execPath, ["--import", "tsx", "src/server/service/migration/copy-cli.ts"], { cwd: ROOT, env });
    expect(copied.stdout).toMatch(/^Copied 4 Tables, 1,\d{3} Records and \d+ stored object versions/);

    const onPg = await startServiceProcess({ DATABASE_URL: db.url, DATA_DIR: dataDir });
    try {
      expect(await snapshot(onPg.call)).toEqual(before);
      for (const [i, key] of versioned.entries()) {
        const res = await onPg.call(`/v0/storage/public/public-assets/${key}`);
        expect(await res.text()).toBe(["first", "second"][i]);
      }
    } finally {
      await onPg.stop();
    }

    const again = await run(process.execPath, ["--import", "tsx", "src/server/service/migration/copy-cli.ts"], { cwd: ROOT, env }).catch((e: { code: number; stderr: string }) => e);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringMatching(/already holds Tables/) });
  });
});
