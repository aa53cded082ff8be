/**
 * Where an invite link printed by `npm run people` should point: BASEBOARD_ORIGIN, else the
 * address a running Baseboard on the same DATA_DIR wrote at start (ADDRESS_FILE), else
 * http://127.0.0.1:PORT (5173 unless set).
 */
import fs from "node:fs";
import path from "node:path";

/** Written by `npm start` into DATA_DIR while it runs: the address it answers at. */
export const ADDRESS_FILE = "baseboard.address";

export function inviteOrigin(env: NodeJS.ProcessEnv): string {
  if (env.BASEBOARD_ORIGIN) return env.BASEBOARD_ORIGIN.replace(/\/$/, "");
  if (!env.PORT) {
    try {
      const running = fs.readFileSync(path.join(path.resolve(env.DATA_DIR ?? ".data"), ADDRESS_FILE), "utf8").trim();
      if (/^https?:\/\//.test(running)) return running.replace(/\/$/, "");
    } catch {
      /* no Baseboard running on this DATA_DIR */
    }
  }
  return `http://127.0.0.1:${env.PORT ?? 5173}`;
}
