/**
 * No stall (issue 10 item 6): while a heavy query runs, light requests through the proxy
 * (/api/health and a primary-key lookup) are answered at once, not after it. The heavy query
 * joins two small tables into 900,000 rows, sorted on text and counted (seconds of engine time).
 * The assertion is about order and promptness relative to it, not a wall-clock target (that is
 * in `npm run bench -- records`). With the engine on the event loop, as before, no light
 * request could be answered while the heavy one ran.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestBaseboard, type TestBaseboard } from "./testing/test-baseboard";

const KEY = "stall-key-5e0c2a9b7d14";
const ROWS = 3_000;
const GROUPS = 10;
let board: TestBaseboard;

const label = (i: number) => `label ${(i * 7919) % ROWS}`;

async function importTable(slug: string): Promise<void> {
  const lines = ["id,k,label"];
  for (let i = 0; i < ROWS; i++) lines.push(`${slug[0]}${i},${i % GROUPS},${label(i)}`);
  const res = await fetch(`${board.serviceUrl}/v0/record/demo/${slug}/import?primaryKey=id`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "text/csv" },
    body: lines.join("\n") + "\n",
  });
  expect(res.status, await res.text()).toBe(200);
}

async function viaProxy(pathname: string, json?: unknown): Promise<{ status: number; body: any; ms: number }> {
  const t = performance.now();
  const res = await fetch(board.url + pathname, {
    method: json === undefined ? "GET" : "POST",
    headers: json === undefined ? {} : { "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const body = await res.json();
  return { status: res.status, body, ms: performance.now() - t };
}

beforeAll(async () => {
  board = await startTestBaseboard({ API_KEY: KEY, SERVICE_SEED: "0" });
  await importTable("left");
  await importTable("right");
}, 60_000);

afterAll(async () => {
  await board?.stop();
});

// 3,000 × 300 = 900,000 joined rows, sorted on a text Field descending and counted.
const heavy = {
  join: [{ targetTable: "right", rules: [{ tableKey: "k", targetTableKey: "k" }] }],
  filter: { and: [{ key: "right.label", operator: "notContains", value: "zz" }] },
  sort: [{ key: "right.label", direction: "descending" }],
  skip: 100_000,
  limit: 10,
};

it("answers /api/health and a primary-key lookup while a heavy query is in flight", async () => {
  let heavyDone = false;
  const heavyReply = viaProxy("/api/v0/record/demo/left/query", heavy).then((r) => {
    heavyDone = true;
    return r;
  });
  await new Promise((r) => setTimeout(r, 50));
  const during: number[] = [];
  for (let i = 0; !heavyDone && i < 500; i++) {
    const health = await viaProxy("/api/health");
    const pk = await viaProxy("/api/v0/record/demo/left/query", { filter: { and: [{ key: "id", operator: "equal", value: `l${i}` }] } });
    expect(health.status).toBe(200);
    expect(pk.status).toBe(200);
    expect(pk.body.items).toEqual([{ id: `l${i}`, k: i % GROUPS, label: label(i) }]);
    if (!heavyDone) during.push(health.ms, pk.ms);
  }
  const done = await heavyReply;
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(done.body.count).toBe(ROWS * (ROWS / GROUPS));
  // Several light requests were answered while the heavy one ran, each in a small part of its time.
  expect(during.length).toBeGreaterThanOrEqual(6);
  expect(Math.max(...during)).toBeLessThan(done.ms / 3);
}, 120_000);
