/**
 * The upstream's catalog between requests (`createCatalogCache`), shared by the activity log and
 * the proxy: one read for callers asking at once, none while fresh, one more for a name it lacks
 * (at most once a second per name), a failed read keeps what was known. A real HTTP upstream
 * counts the reads of GET /v0/meta.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogCache } from "./app-config";
import { createUpstream, type Upstream } from "./forward";
import { type RawUpstream, startRawUpstream } from "./testing/test-baseboard";

let raw: RawUpstream;
let upstream: Upstream;
let tables = ["employees"];
let failing = false;
const metaReads = () => raw.seen.filter((r) => r.url === "/v0/meta").length;

beforeAll(async () => {
  raw = await startRawUpstream((req, res) => {
    // Slow enough that reads asked for at once overlap.
    setTimeout(() => {
      if (failing) {
        res.writeHead(503, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: "unavailable", subCode: 0, message: "Down for a moment" }));
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ databases: [{ id: "demo", tables: tables.map((slug) => ({ slug, primaryKey: "id" })) }], buckets: [{ name: "assets", permission: "public", access: ["read"] }] }));
    }, 30);
  });
  upstream = createUpstream({ baseUrl: raw.url, apiKey: "k", timeoutMs: 5_000, label: "The test upstream" });
});
afterAll(async () => {
  await upstream?.close();
  await raw?.close();
});

const source = { kind: "local" as const, label: "test", fileName: "baseboard.config.json" };
const slugs = (c?: { databases: { tables: { slug: string }[] }[] }) => c?.databases.flatMap((d) => d.tables.map((t) => t.slug));

describe("the catalog cache", () => {
  it("reads once for callers at once, not again while fresh, again for a name it lacks (once a second), after invalidate, and keeps the last good one", async () => {
    tables = ["employees"];
    const cache = createCatalogCache(upstream, source, 60_000);
    const before = metaReads();
    const [a, b, c] = await Promise.all([cache.get(), cache.get(), cache.get("demo/employees")]);
    expect(metaReads() - before).toBe(1);
    expect(slugs(a.config)).toEqual(["employees"]);
    expect(b.config).toBe(a.config);
    expect(c.read?.status).toBe(200);

    // Fresh and holding the name: no read.
    expect((await cache.get("demo/employees")).read).toBeUndefined();
    expect((await cache.get("assets")).read).toBeUndefined();
    expect(metaReads() - before).toBe(1);

    // A table made since (an import): the name it lacks is looked for once, then not for a second.
    tables = ["employees", "orders"];
    expect(slugs((await cache.get("demo/orders")).config)).toEqual(["employees", "orders"]);
    expect(metaReads() - before).toBe(2);
    expect((await cache.get("demo/nope")).read?.status).toBe(200);
    expect((await cache.get("demo/nope")).read).toBeUndefined();
    expect(metaReads() - before).toBe(3);

    // A failed read is answered, and the last good catalog is kept.
    failing = true;
    cache.invalidate();
    const failed = await cache.get();
    expect(failed.read?.status).toBe(503);
    expect(slugs(failed.config)).toEqual(["employees", "orders"]);
    failing = false;

    // An answer read elsewhere (GET /api/config) is taken as fresh.
    cache.put({ status: 200, body: { databases: [], buckets: [], capabilities: failed.config!.capabilities, upstream: { kind: "local", label: "x" } } });
    const reads = metaReads();
    expect(slugs((await cache.get()).config)).toEqual([]);
    expect(metaReads()).toBe(reads);
  });

  it("reads again once older than its age", async () => {
    const cache = createCatalogCache(upstream, source, 50);
    const before = metaReads();
    await cache.get();
    await cache.get();
    expect(metaReads() - before).toBe(1);
    await new Promise((r) => setTimeout(r, 80));
    expect((await cache.get()).read?.status).toBe(200);
    expect(metaReads() - before).toBe(2);
  });
});
