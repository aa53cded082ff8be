/**
 * The PostgreSQL test harness itself: the scratch cluster answers, each test service gets a
 * database of its own, and dropping it removes it.
 */
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { createTestDatabase } from "./test-database";
import { engineForTest } from "./test-engine";

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe("PostgreSQL test harness", () => {
  it("runs the postgres project on a real server, with a database per test service", async () => {
    const engine = await engineForTest();
    expect(engine.engine).toBe("postgres");
    const other = await createTestDatabase(inject("pgAdminUrl"));
    try {
      await withClient(engine.databaseUrl!, (c) => c.query("CREATE TABLE only_here (x int)"));
      const seen = await withClient(other.url, (c) => c.query("SELECT to_regclass('only_here') AS t"));
      expect(seen.rows[0].t).toBeNull();
      const version = await withClient(engine.databaseUrl!, (c) => c.query("SHOW server_version_num"));
      expect(Number(version.rows[0].server_version_num)).toBeGreaterThanOrEqual(130000);
    } finally {
      await other.drop();
      await engine.release();
    }
    const left = await withClient(inject("pgAdminUrl"), (c) =>
      c.query("SELECT count(*)::int AS n FROM pg_database WHERE datname = ANY($1)", [[other.name, engine.databaseUrl!.split("/").pop()!.split("?")[0]]]),
    );
    expect(left.rows[0].n).toBe(0);
  });
});
