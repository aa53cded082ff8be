/**
 * The web data layer's convention (style.md, issue 13 item 6), kept by a test because new
 * features arrive in parallel: query keys come from the `*Keys` objects (records-keys.ts,
 * storage-keys.ts, healthKeys), never as literal arrays; requests go out through api-client.ts
 * from the `<resource>-<verb>-query.ts` / `-mutation.ts` files, not from components.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

const rel = (f: string) => path.relative(root, f);
const files = sources(root);

it("has no literal query key arrays outside the keys objects", () => {
  const literal = /queryKey:\s*\[/;
  expect(files.filter((f) => literal.test(fs.readFileSync(f, "utf8"))).map(rel)).toEqual([]);
});

it("calls the server only from the data-layer files (and the two that cannot use api-client)", () => {
  // health-get-query reads /api/health's body whatever its status; the export worker runs
  // off the main thread, where the app's modules are not loaded.
  const allowed = /(^api-client\.ts|-query\.ts|-mutation\.ts|upload\/upload-(xhr|store|parts)\.ts|export\.worker\.ts)$/;
  const direct = /\bfetch\(|new XMLHttpRequest|\bapi(Fetch)?(<[^>]*>)?\(/;
  const offenders = files.filter((f) => !allowed.test(rel(f)) && direct.test(fs.readFileSync(f, "utf8"))).map(rel);
  expect(offenders).toEqual([]);
});
