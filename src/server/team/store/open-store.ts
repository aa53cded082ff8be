/** Opens the team store the environment names: PostgreSQL with BASEBOARD_DATABASE_URL, else DATA_DIR/team.sqlite. */
import path from "node:path";
import { openPostgresTeamStore } from "./postgres-store";
import { openSqliteTeamStore } from "./sqlite-store";
import type { TeamStore } from "./team-store";

export async function openTeamStore(env: NodeJS.ProcessEnv): Promise<TeamStore> {
  const url = env.BASEBOARD_DATABASE_URL?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error("BASEBOARD_DATABASE_URL must be a postgres:// URL.");
    try {
      return await openPostgresTeamStore(url);
    } catch (e) {
      throw new Error(`Cannot open the people store at BASEBOARD_DATABASE_URL: ${(e as Error).message}`, { cause: e });
    }
  }
  return openSqliteTeamStore(path.resolve(env.DATA_DIR ?? ".data"));
}
