/**
 * Which engine a test service runs on. The `postgres` vitest project sets BB_TEST_ENGINE and
 * provides the scratch cluster's URL; every service a test starts then gets its own database
 * there. Elsewhere (the `embedded` project, or a file run alone) this returns nothing to change.
 */
import { inject } from "vitest";
import { createTestDatabase } from "./test-database";

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

export async function engineForTest(): Promise<EngineForTest> {
  if (testEngine() !== "postgres") return { engine: "embedded", release: async () => undefined };
  const db = await createTestDatabase(inject("pgAdminUrl"));
  return { engine: "postgres", databaseUrl: db.url, release: db.drop };
}
