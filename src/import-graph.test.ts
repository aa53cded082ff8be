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

/**
 * One naming scheme for test helpers (issue 23 item 3): code that only tests use lives in a
 * `testing/` folder beside what it helps test, and nothing else imports from such a folder.
 * Importers are looked for in src, e2e and bench; a module that package.json runs is an entry.
 */
it("keeps test helpers in testing/ folders, imported only by tests", () => {
  const project = path.dirname(root);
  const all = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
  const files = ["src", "e2e", "bench"].flatMap((d) => all(path.join(project, d)));
  const scripts = JSON.stringify(JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8")).scripts);
  const rel = (f: string) => path.relative(project, f);
  const isTest = (f: string) => /\.test\.tsx?$/.test(f) || rel(f).startsWith("e2e/");
  const inTesting = (f: string) => f.split(path.sep).includes("testing");
  const ANY_IMPORT = /(?:from\s+|import\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm;
  const imports = new Map(files.map((f) => [f, [...fs.readFileSync(f, "utf8").matchAll(ANY_IMPORT)].map((m) => resolve(f, m[1])).filter((t): t is string => !!t)]));
  const importers = new Map<string, string[]>();
  for (const [f, targets] of imports) for (const t of targets) importers.set(t, [...(importers.get(t) ?? []), f]);
  const misplaced = files.filter((f) => {
    if (isTest(f) || inTesting(f) || !rel(f).startsWith("src/") || scripts.includes(rel(f))) return false;
    const users = importers.get(f) ?? [];
    return users.length > 0 && users.every((u) => isTest(u) || inTesting(u));
  });
  const reachIn = files
    .filter((f) => !isTest(f) && !inTesting(f))
    .flatMap((f) => imports.get(f)!.filter(inTesting).map((t) => `${rel(f)} → ${rel(t)}`));
  const oldNames = files.filter((f) => /test-helpers|test-support|\.testing\.tsx?$|\.helpers\.tsx?$/.test(f) || (rel(f).startsWith("e2e/") && !inTesting(f) && !/\.(spec|d)\.ts$/.test(f))).map(rel);
  expect({ misplaced: misplaced.map(rel), reachIn, oldNames }).toEqual({ misplaced: [], reachIn: [], oldNames: [] });
});
