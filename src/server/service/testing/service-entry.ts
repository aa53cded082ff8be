/**
 * How tests run the service as its own node process: the esbuild bundle `npm start` runs
 * (dist-server/service/main.js, which `npm run test:unit` builds before vitest) when it was built
 * after the last change to the server's sources, else service/main.ts under tsx.
 *
 * Why: a test run starts about eighty service processes (every proxy test's embedded service,
 * each kill-and-restart). Under tsx one takes 1.3–1.9 s of a core to listen, loading each
 * module through tsx's loader; the bundle 0.7–0.9 s. A stale bundle is never used: a test run
 * from an editor after a change, without the build, gets the sources as they are.
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../../../..");
const BUNDLE = path.join(ROOT, "dist-server", "service", "main.js");

/** The newest modification time of the server's sources (tests left out: they are not in the bundle). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

let fresh: boolean | undefined;
function bundleIsFresh(): boolean {
  if (fresh === undefined) {
    const built = fs.existsSync(BUNDLE) ? fs.statSync(BUNDLE).mtimeMs : 0;
    fresh = built > Math.max(newestSource(path.join(ROOT, "src", "server")), newestSource(path.join(ROOT, "src", "shared")));
  }
  return fresh;
}

/** The script and node options that start the service (its arguments are the caller's). */
export function serviceEntry(): { script: string; execArgv: string[] } {
  if (bundleIsFresh()) return { script: BUNDLE, execArgv: ["--max-semi-space-size=1"] };
  return { script: path.join(ROOT, "src", "server", "service", "main.ts"), execArgv: ["--import", "tsx"] };
}

/**
 * The node arguments that run a command as `npm start` or `npm run people|audit|import` does,
 * from the bundle built beside the service's when it is fresh: the CLI tests start ~40 of them,
 * 1.0 s each under tsx, 0.4 s bundled.
 */
export function commandArgs(source: "launcher/main" | "team/people/cli" | "team/audit/cli" | "service/records/import/cli"): string[] {
  if (bundleIsFresh()) return [path.join(ROOT, "dist-server", `${source}.js`)];
  return ["--import", "tsx", path.join(ROOT, "src", "server", `${source}.ts`)];
}
