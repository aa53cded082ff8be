/**
 * The browser bundle never carries the key: build the app (into a temp directory) with the key
 * in every variable it could be read from, then search every built file for it.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const KEY = `bundle-key-${Date.now().toString(36)}-9f2c`;
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-bundle-"));

afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

it("keeps the API key out of the built app", async () => {
  const vite = path.resolve("node_modules/.bin/vite");
  await promisify(execFile)(vite, ["build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "error"], {
    env: { ...process.env, API_KEY: KEY, SERVICE_API_KEYS: KEY, BASEBOARD_PASSWORD: KEY, VITE_API_KEY: KEY, VITE_KEY: KEY },
    timeout: 80_000,
  });
  const files = filesUnder(outDir);
  expect(files.some((f) => f.endsWith(".js"))).toBe(true);
  for (const file of files) expect(fs.readFileSync(file).includes(KEY), file).toBe(false);
  // The search itself works: the app's own request header is in the bundle.
  expect(files.some((f) => fs.readFileSync(f).includes("x-baseboard-client"))).toBe(true);
}, 90_000);
