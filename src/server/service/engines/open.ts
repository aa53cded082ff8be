/**
 * Opens the engine the configuration names: the embedded DuckDB file under DATA_DIR by
 * default (migrating a SQLite file left by an older version first). The one place that knows
 * which engines exist; DATABASE_URL (PostgreSQL) is added here.
 */
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { ServiceConfig } from "../config";
import { openDuckDbEngine } from "./duckdb/engine";
import type { SqlEngine } from "./engine";
import { migrateSqliteIfPresent } from "./migrate-sqlite";
import { redactUrl } from "./postgres/connection";
import { openPostgresEngine } from "./postgres/engine";

export const DUCKDB_FILE = "baseboard.duckdb";

export type EngineConfig = Pick<ServiceConfig, "dataDir" | "duckdb" | "postgres">;

export async function openEngine(config: EngineConfig, log: Pick<FastifyBaseLogger, "info" | "warn">): Promise<SqlEngine> {
  if (config.postgres) {
    const engine = await openPostgresEngine(config.postgres);
    log.info(`records and storage metadata on PostgreSQL at ${redactUrl(config.postgres.url)}`);
    return engine;
  }
  const file = path.join(config.dataDir, DUCKDB_FILE);
  const engine = await openDuckDbEngine({ file, memoryLimit: config.duckdb.memoryLimit, threads: config.duckdb.threads });
  try {
    await migrateSqliteIfPresent(config.dataDir, engine, log);
  } catch (e) {
    await engine.close();
    throw e;
  }
  return engine;
}
