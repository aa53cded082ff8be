/**
 * No module imports itself back through others (issue 10 item 1: the cycles service app.ts ↔
 * records/routes.ts and web router.tsx ↔ RecordsWorkspace.tsx are gone and stay gone). Only
 * static value imports count: `import type` is erased and `import()` runs later.
 * The runtime boundaries themselves are ESLint's no-restricted-imports (eslint.config.js).
 */
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname);
const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s+)?["'](\.{1,2}\/[^"']+)["']/gm;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find(
    (p) => /\.tsx?$/.test(p) && fs.existsSync(p),
  );
}

/** Every cycle found by a depth-first walk (each reported once, from its first module). */
export function cycles(files: string[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const f of files) {
    const text = fs.readFileSync(f, "utf8");
    edges.set(f, [...text.matchAll(IMPORT)].map((m) => resolve(f, m[1])).filter((p): p is string => p !== undefined));
  }
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const g of edges.get(f) ?? []) {
      if (state.get(g) === "open") found.push([...stack.slice(stack.indexOf(g)), g].map((p) => path.relative(root, p)));
      else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return found;
}

it("has no import cycle in src", () => {
  expect(cycles(sources(root))).toEqual([]);
});
