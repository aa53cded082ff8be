/**
 * What the service's commands (`npm run import`, `search-index`, `copy-to-postgres`) share:
 * the engine their configuration names, opened and always closed, and one way to end: the
 * command's exit code, or 1 with one line saying what failed (no stack).
 */
import { parseServiceConfig, type ServiceConfig } from "./config";
import type { SqlEngine } from "./engines/engine";
import { openEngine } from "./engines/open";

/** Runs `fn` with the engine `config` names (DATA_DIR or DATABASE_URL), closed after. */
export async function withEngine<T>(config: ServiceConfig, fn: (engine: SqlEngine) => Promise<T>): Promise<T> {
  const engine = await openEngine(config);
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
