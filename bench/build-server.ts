import { spawnSync } from "node:child_process";

/** The esbuild bundle `npm start` runs (dist-server), built afresh so a benchmark measures this checkout. */
export function buildServer(): void {
  const built = spawnSync("npm", ["run", "build:server", "--silent"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build:server failed");
}
