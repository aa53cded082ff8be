/**
 * Opens the engine the configuration names: the embedded DuckDB file under DATA_DIR by
 * default. The one place that knows which engines exist; DATABASE_URL (PostgreSQL) is added here.
 */
import path from "node:path";
import type { ServiceConfig } from "../config";
import { openDuckDbEngine } from "./duckdb/engine";
import type { SqlEngine } from "./engine";

export const DUCKDB_FILE = "baseboard.duckdb";

export type EngineConfig = Pick<ServiceConfig, "dataDir" | "duckdb">;

export async function openEngine(config: EngineConfig): Promise<SqlEngine> {
  const file = path.join(config.dataDir, DUCKDB_FILE);
  return openDuckDbEngine({ file, memoryLimit: config.duckdb.memoryLimit, threads: config.duckdb.threads });
}
