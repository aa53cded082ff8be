/**
 * How to run the embedded service as a child: the esbuild bundle's service/main.js on plain
 * node (`npm start`), or service/main.ts under tsx (`npm run dev`, tests, e2e). Which one is
 * told by the module asking: launcher/main.js in dist-server, or a .ts file in src/server.
 * The child's environment carries none of the proxy's secrets: the keys it accepts come over
 * IPC (child-protocol.ts) and it has no use for the login password or the session secret.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ChildCommand } from "./supervisor";

const NOT_FOR_THE_CHILD = ["API_KEY", "BASE_URL", "SERVICE_API_KEYS", "BASEBOARD_PASSWORD", "BASEBOARD_SESSION_SECRET"];

export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of NOT_FOR_THE_CHILD) delete out[name];
  return out;
}

/** `fromUrl`: import.meta.url of a module in the launcher folder (src or dist-server). */
export function serviceCommand(fromUrl: string, env: NodeJS.ProcessEnv): ChildCommand {
  const file = fileURLToPath(fromUrl);
  const dir = path.dirname(file);
  if (file.endsWith(".js")) {
    // The same small young generation `npm start` gives the launcher (see package.json).
    return { script: path.join(dir, "..", "service", "main.js"), execArgv: ["--max-semi-space-size=1"], env: childEnv(env) };
  }
  const tsx = pathToFileURL(createRequire(fromUrl).resolve("tsx")).href;
  return { script: path.join(dir, "..", "service", "main.ts"), execArgv: ["--import", tsx], env: childEnv(env) };
}
