/**
 * Several instances on one PostgreSQL (issue 11 item 2): two real service processes, started
 * at the same moment on one empty database and one shared data directory (a shared volume),
 * written to at once. Updates of one Record from both lose nothing; uploads of one key from
 * both get distinct versions issued by the database, each readable from the other instance.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { SAMPLE_EMPLOYEES } from "../../records/seed";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";
import { type ServiceProcess, startServiceProcess } from "../../testing/service-process";

const FIELDS = 24;
let db: TestDatabase;
let dataDir: string;
let a: ServiceProcess;
let b: ServiceProcess;

beforeAll(async () => {
  db = await createTestDatabase(inject("pgAdminUrl"));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-two-"));
  // Both create the schema and seed the demo data at once: start-up itself must not race.
  // Two instances share DATA_DIR: each one's start-up sweep must spare the other's uploads in flight.
  const env = { DATABASE_URL: db.url, DATA_DIR: dataDir, SERVICE_SEED: "1", DATABASE_POOL_MAX: "4", STORAGE_SWEEP_GRACE_SECONDS: "900" };
  [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("two service processes on one PostgreSQL database", () => {
  it("both started on the empty database; the demo data was seeded once", async () => {
    for (const svc of [a, b]) {
      const res = await svc.call("/v0/record/demo/employees/query", { json: { limit: 1 } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { count: number };
      expect(body.count).toBe(SAMPLE_EMPLOYEES);
    }
  });

  it("concurrent updates of one Record from both instances lose nothing", async () => {
    const header = ["id", ...Array.from({ length: FIELDS }, (_, i) => `f${i}`)];
    const types = header.slice(1).map((k) => `type=${k}:number`).join("&");
    const created = await a.call(`/v0/record/demo/shared/import?primaryKey=id&${types}`, {
      method: "POST",
      headers: { "content-type": "text/csv" },
      body: `${header.join(",")}\nr1${",".repeat(FIELDS)}\nr2${",".repeat(FIELDS)}\n`,
    });
    expect(created.status).toBe(200);
    // Every Field of r1 written by its own request, all in flight at once, alternating between
    // the instances; a lost update would leave one of them null.
    const results = await Promise.all(
      Array.from({ length: FIELDS }, (_, i) =>
        (i % 2 ? b : a).call("/v0/record/demo/shared/update", {
          json: { filter: { and: [{ key: "id", operator: "equal", value: "r1" }] }, values: [{ key: `f${i}`, value: i + 1 }] },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    for (const svc of [a, b]) {
      const res = await svc.call("/v0/record/demo/shared/query", { json: { filter: { and: [{ key: "id", operator: "equal", value: "r1" }] } } });
      const row = ((await res.json()) as { items: Record<string, unknown>[] }).items[0];
      expect(row).toEqual(Object.fromEntries([["id", "r1"], ...Array.from({ length: FIELDS }, (_, i) => [`f${i}`, i + 1])]));
    }
  });

  it("concurrent imports into one Table from both instances: all or nothing each, nothing lost", async () => {
    const rows = (from: number) => Array.from({ length: 500 }, (_, i) => `n${from + i},${from + i}`).join("\n");
    const send = (svc: ServiceProcess, from: number) =>
      svc.call("/v0/record/demo/numbers/import?primaryKey=id", { method: "POST", headers: { "content-type": "text/csv" }, body: `id,n\n${rows(from)}\n` });
    const answers = await Promise.all([send(a, 0), send(b, 500), send(a, 1000), send(b, 1500)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { inserted: number; created: boolean }[];
    expect(bodies.map((x) => x.inserted)).toEqual([500, 500, 500, 500]);
    expect(bodies.filter((x) => x.created)).toHaveLength(1);
    const res = await b.call("/v0/record/demo/numbers/query", { json: { limit: 1 } });
    expect(((await res.json()) as { count: number }).count).toBe(2000);
  });

  it("a count one instance cached is dropped when the other instance writes", async () => {
    const count = async (svc: ServiceProcess, skip: number) =>
      ((await (await svc.call("/v0/record/demo/numbers/query", { json: { filter: { and: [{ key: "n", operator: "greaterThanOrEqual", value: 1000 }] }, skip, limit: 10 } })).json()) as { count: number }).count;
    // Two pages of one filter on b: the second reuses the first's count.
    const before = await count(b, 0);
    expect(await count(b, 10)).toBe(before);
    const more = await a.call("/v0/record/demo/numbers/import", { method: "POST", headers: { "content-type": "text/csv" }, body: "id,n\nx1,5000\nx2,5001\nx3,5002\n" });
    expect(more.status).toBe(200);
    // a's commit reaches b as a notification a moment later; b's next page must count again.
    await vi.waitFor(async () => expect(await count(b, 20)).toBe(before + 3), { timeout: 3000, interval: 20 });
  });

  it("concurrent uploads of one key from both get distinct versions, each readable from the other", async () => {
    const N = 12;
    const send = (svc: ServiceProcess, i: number) => {
      const form = new FormData();
      form.append("key", "same/key.txt");
      form.append("file", new Blob([`upload ${i} via ${svc === a ? "a" : "b"}`], { type: "text/plain" }), "key.txt");
      return svc.call("/v0/storage/object/public-assets", { method: "POST", body: form });
    };
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => send(i % 2 ? b : a, i)));
    const bodies = await Promise.all(answers.map(async (r) => ({ status: r.status, body: (await r.json()) as { key: string } })));
    expect(bodies.map((x) => x.status)).toEqual(bodies.map(() => 200));
    const keys = bodies.map((x) => x.body.key);
    expect(new Set(keys).size).toBe(N);
    for (const k of keys) expect(k).toMatch(/^v\d+\/same\/key\.txt$/);
    for (let i = 0; i < N; i++) {
      const other = i % 2 ? a : b;
      const res = await other.call(`/v0/storage/public/public-assets/${keys[i]}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(`upload ${i} via ${i % 2 ? "b" : "a"}`);
    }
  });
});
