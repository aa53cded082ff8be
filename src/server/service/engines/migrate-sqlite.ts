/** Placeholder; the migration of a SQLite data directory is written in the next commit. */
import type { SqlEngine } from "./engine";

export async function migrateSqliteIfPresent(_dataDir: string, _engine: SqlEngine, _log: { info(msg: string): void }): Promise<void> {}
