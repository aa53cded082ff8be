/**
 * vitest globalSetup of the `postgres` test project: one scratch PostgreSQL cluster for the
 * whole run, its admin URL handed to the test files (`inject("pgAdminUrl")`), stopped after.
 * Each test service then gets a database of its own (test-database.ts), so files stay
 * isolated and run in parallel.
 */
import type { TestProject } from "vitest/node";
import { startScratchCluster } from "../scratch-cluster";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startScratchCluster({ port: Number(process.env.BB_TEST_PG_PORT ?? 55432) });
  project.provide("pgAdminUrl", cluster.adminUrl);
  return () => cluster.stop();
}
