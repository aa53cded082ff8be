/**
 * Which engine a test service runs on. The `postgres` vitest project sets BB_TEST_ENGINE and
 * provides the scratch cluster's URL; every service a test starts then gets its own database
 * there. Elsewhere (the `embedded` project, or a file run alone) this returns nothing to change.
 */
import { inject } from "vitest";
import { createTestDatabase, type TestDatabase } from "./test-database";

export type TestEngine = "embedded" | "postgres";

export function testEngine(): TestEngine {
  return process.env.BB_TEST_ENGINE === "postgres" ? "postgres" : "embedded";
}

export interface EngineForTest {
  engine: TestEngine;
  /** DATABASE_URL for the service (undefined: the embedded engine under DATA_DIR). */
  databaseUrl?: string;
  /** Drops the test's database (after the service closed). */
  release(): Promise<void>;
}

/** Databases by data directory: a service restarted on the same DATA_DIR finds its data again. */
const byDataDir = new Map<string, Promise<TestDatabase>>();

/**
 * The engine for a test service. With `dataDir`, the same directory always gets the same
 * database (tests restart a service on its directory to check what persisted); `release`
 * then drops it and forgets the pairing.
 */
export async function engineForTest(dataDir?: string): Promise<EngineForTest> {
  if (testEngine() !== "postgres") return { engine: "embedded", release: async () => undefined };
  if (!dataDir) {
    const db = await createTestDatabase(inject("pgAdminUrl"));
    return { engine: "postgres", databaseUrl: db.url, release: db.drop };
  }
  let pending = byDataDir.get(dataDir);
  if (!pending) byDataDir.set(dataDir, (pending = createTestDatabase(inject("pgAdminUrl"))));
  const db = await pending;
  return {
    engine: "postgres",
    databaseUrl: db.url,
    async release() {
      if (byDataDir.get(dataDir) !== pending) return;
      byDataDir.delete(dataDir);
      await db.drop();
    },
  };
}
