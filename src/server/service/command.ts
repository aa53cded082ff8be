/**
 * What the service's commands (`npm run import`, `search-index`, `copy-to-postgres`) share:
 * the engine their configuration names, opened and always closed, and one way to end: the
 * command's exit code, or 1 with one line saying what failed (no stack).
 */
import { parseServiceConfig, type ServiceConfig } from "./config";
import type { SqlEngine } from "./engines/engine";
import { openEngine } from "./engines/open";

/**
 * DuckDB's "Could not set lock on file … Conflicting lock is held in … (PID n)", in our words:
 * the embedded database is one process's at a time, most likely a running Baseboard's.
 */
export function lockedDatabaseMessage(error: unknown, dataDir: string): string | undefined {
  const m = /Could not set lock on file[\s\S]*?Conflicting lock is held in [^\n]*?\(PID (\d+)\)/i.exec(String((error as Error)?.message ?? error));
  if (!m) return undefined;
  return `the database in ${dataDir} is open in another process (PID ${m[1]}), most likely a running Baseboard: stop it first, or import through it (the app's Import CSV…, or POST /v0/record/{db}/{table}/import; see the README).`;
}

/** Runs `fn` with the engine `config` names (DATA_DIR or DATABASE_URL), closed after. */
export async function withEngine<T>(config: ServiceConfig, fn: (engine: SqlEngine) => Promise<T>): Promise<T> {
  let engine: SqlEngine;
  try {
    engine = await openEngine(config);
  } catch (e) {
    const locked = lockedDatabaseMessage(e, config.dataDir);
    throw locked ? new Error(locked) : e;
  }
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

/** The service's configuration from this command's arguments and environment. */
export const commandConfig = (): ServiceConfig => parseServiceConfig(process.argv.slice(2), process.env);

/** Ends the process with `main`'s exit code, or 1 after `${failure}: message` if it throws. */
export function runCommand(failure: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error(`${failure}: ${(e as Error).message}`);
      process.exit(1);
    },
  );
}
