/**
 * Opens the engine the configuration names: PostgreSQL when DATABASE_URL is set, else the
 * embedded DuckDB file under DATA_DIR. The one place that knows which engines exist.
 */
import path from "node:path";
import type { ServiceConfig } from "../config";
import { openDuckDbEngine } from "./duckdb/engine";
import { EngineError, type SqlEngine } from "./engine";
import { redactUrl } from "./postgres/connection";
import { openPostgresEngine } from "./postgres/engine";

export const DUCKDB_FILE = "baseboard.duckdb";

export type EngineConfig = Pick<ServiceConfig, "dataDir" | "duckdb" | "postgres">;

export async function openEngine(config: EngineConfig, log?: { info(message: string): void }): Promise<SqlEngine> {
  if (config.postgres) {
    const engine = await openPostgresEngine(config.postgres).catch((e: unknown) => {
      // Said at start-up in one line (the address without its password), not as a stack.
      if (e instanceof EngineError && e.kind === "unavailable") {
        const cause = e.cause instanceof Error ? `: ${e.cause.message}` : "";
        e.message = `the PostgreSQL database at ${redactUrl(config.postgres!.url)} is unreachable${cause}`;
      }
      throw e;
    });
    log?.info(`records and storage metadata on PostgreSQL at ${redactUrl(config.postgres.url)}`);
    return engine;
  }
  const file = path.join(config.dataDir, DUCKDB_FILE);
  return openDuckDbEngine({ file, memoryLimit: config.duckdb.memoryLimit, threads: config.duckdb.threads });
}
