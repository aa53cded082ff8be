/**
 * No stall (issue 10 item 6): while a heavy query runs, light requests (a primary-key lookup,
 * /v0/meta) are answered at once, not after it. The heavy query is a join that multiplies two
 * small tables into tens of millions of rows, sorted and counted; the assertion is about order
 * and promptness relative to it, not a wall-clock target (that is in `npm run bench -- records`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseServiceConfig } from "../config";
import { openEngine } from "../engines/open";
import { startTestService, type TestService } from "../test-support";
import { SqlRecordStore } from "./store";
import { post } from "./testing/http";

const ROWS = 20_000;
const GROUPS = 10;
let svc: TestService;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-stall-"));
  const engine = await openEngine({ ...parseServiceConfig([], {}), dataDir });
  const store = await SqlRecordStore.open(engine);
  for (const slug of ["left", "right"]) {
    const table = await store.createTable({
      databaseId: "demo",
      slug,
      primaryKey: "id",
      fields: [
        { key: "id", type: "text", nullable: false },
        { key: "k", type: "number", nullable: true },
        { key: "label", type: "text", nullable: true },
      ],
    });
    await store.insertRows(table, (function* () {
      for (let i = 0; i < ROWS; i++) yield { id: `${slug[0]}${i}`, k: i % GROUPS, label: `label ${(i * 7919) % ROWS}` };
    })());
  }
  await engine.close();
  svc = await startTestService({ dataDir, seed: false });
});

afterAll(async () => {
  await svc?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// 20,000 × 2,000 = 40,000,000 joined rows, sorted on a text Field and counted.
const heavy = {
  join: [{ targetTable: "right", rules: [{ tableKey: "k", targetTableKey: "k" }] }],
  filter: { and: [{ key: "right.label", operator: "notContains", value: "zz" }] },
  sort: [{ key: "right.label", direction: "descending" }],
  skip: 100_000,
  limit: 10,
};

it("answers a primary-key lookup and /v0/meta while a heavy query is in flight", async () => {
  let heavyDone = false;
  const started = performance.now();
  const heavyReply = post(svc, "/v0/record/demo/left/query", heavy).then((r) => {
    heavyDone = true;
    return { ...r, ms: performance.now() - started };
  });
  await new Promise((r) => setTimeout(r, 50));
  const light: { ms: number; beforeHeavy: boolean }[] = [];
  for (let i = 0; !heavyDone && i < 200; i++) {
    const t = performance.now();
    const pk = await post(svc, "/v0/record/demo/left/query", { filter: { and: [{ key: "id", operator: "equal", value: `l${i}` }] } });
    const meta = await svc.call("/v0/meta");
    expect(pk.status).toBe(200);
    expect(pk.body.items).toEqual([{ id: `l${i}`, k: i % GROUPS, label: `label ${(i * 7919) % ROWS}` }]);
    expect(meta.status).toBe(200);
    light.push({ ms: performance.now() - t, beforeHeavy: !heavyDone });
  }
  const done = await heavyReply;
  expect(done.status).toBe(200);
  expect(done.body.count).toBe(ROWS * (ROWS / GROUPS));
  // Several light requests were answered while the heavy one ran, each in a small part of its time.
  const during = light.filter((l) => l.beforeHeavy);
  expect(during.length).toBeGreaterThanOrEqual(3);
  expect(Math.max(...during.map((l) => l.ms))).toBeLessThan(done.ms / 3);
}, 120_000);
