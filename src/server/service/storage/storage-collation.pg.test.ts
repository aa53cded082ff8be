/**
 * Storage on a PostgreSQL database whose default collation is linguistic (ICU en-US, as managed
 * databases' often are): folders are key ranges, which must be code-point ranges, or "docs/"
 * falls inside "Docs/"'s range and a folder's list, move and delete take in other folders
 * (review 31a #1: a delete job for Docs/ deleted docs/ and DOCS/ too). A table made before the
 * fix is brought to COLLATE "C" at start; search still folds case by Unicode rules.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { inject } from "vitest";
import { parsePostgresOptions } from "../engines/postgres/connection";
import { createTestDatabase, type TestDatabase } from "../engines/postgres/testing/test-database";
import { startTestService, type TestService } from "../testing/test-service";
import { upload, waitForAsync } from "./testing/storage-service";

let db: TestDatabase;
let svc: TestService;
beforeAll(async () => {
  db = await createTestDatabase(inject("pgAdminUrl"), "bb_icu", { icuLocale: "en-US" });
  // The table as an earlier version made it: varchar keys under the database's collation.
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query(
    `create table _storage_objects (bucket varchar not null, key varchar not null, version bigint not null unique, file varchar not null unique, size bigint not null, content_type varchar not null, sha256 varchar not null, created_at bigint not null, constraint _storage_objects_pk primary key (bucket, key, version))`,
  );
  await c.end();
  svc = await startTestService({ postgres: parsePostgresOptions(db.url, {}) });
});
afterAll(async () => {
  await svc?.close();
  await db?.drop();
});

const keysUnder = async (prefix: string) =>
  ((await (await svc.call(`/v0/storage/list/public-assets?prefix=${encodeURIComponent(prefix)}&limit=1000&count=deep`)).json()) as { items: { key: string }[]; count: number });

describe("storage keys on a database with a linguistic collation", () => {
  it("a folder is its own keys only: list, count, move and delete leave docs/ and DOCS/ alone; search folds case", async () => {
    for (const key of ["P/Docs/a.txt", "P/docs/keep-me.txt", "P/DOCS/keep-me-too.txt", "P/Docs/c.txt", "P/Éclair.txt"]) expect((await upload(svc, "public-assets", key, key)).status).toBe(200);
    const listed = await keysUnder("P/Docs/");
    expect(listed.items.map((i) => i.key)).toEqual(["P/Docs/a.txt", "P/Docs/c.txt"]);
    expect(listed.count).toBe(2);
    // Code-point order, as on the embedded engine: upper case before lower.
    expect((await (await svc.call("/v0/storage/list/public-assets?prefix=P/")).json()).folders).toEqual(["P/DOCS/", "P/Docs/", "P/docs/"]);

    const job = async (spec: object) => {
      const res = await svc.call("/v0/storage/jobs/public-assets", { method: "POST", json: spec });
      expect(res.status, await res.clone().text()).toBe(202);
      const { id } = (await res.json()) as { id: string };
      await waitForAsync(async () => ((await (await svc.call(`/v0/storage/jobs/public-assets/${id}`)).json()) as { state: string }).state !== "running", 10_000);
      return (await (await svc.call(`/v0/storage/jobs/public-assets/${id}`)).json()) as { state: string; total: number };
    };
    expect(await job({ action: "move", from: "P/Docs/", to: "P/Moved/" })).toMatchObject({ state: "done", total: 2 });
    expect(await job({ action: "delete", from: "P/Moved/" })).toMatchObject({ state: "done", total: 2 });
    for (const kept of ["P/docs/keep-me.txt", "P/DOCS/keep-me-too.txt"]) expect(await (await fetch(`${svc.url}/v0/storage/public/public-assets/${kept}`)).text()).toBe(kept);

    // Search is a case-insensitive substring by Unicode rules, not ASCII alone (the key column's "C").
    const found = (await (await svc.call(`/v0/storage/search/public-assets?q=${encodeURIComponent("éCLAIR")}`)).json()) as { items: { key: string }[] };
    expect(found.items.map((i) => i.key)).toEqual(["P/Éclair.txt"]);
  });
});
