export {};
/**
 * `npm run bench -- <name>`: runs one benchmark (or all with no name). Each prints its measures
 * as ratios beside a baseline measured in the same run; none of them is a test.
 */
const benches: Record<string, () => Promise<unknown>> = {
  records: () => import("./records"),
  storage: () => import("./storage"),
  proxy: () => import("./proxy"),
  ui: () => import("./ui"),
};

// Names only: options (`--backend s3`, `--engine=duckdb`) and their values are the benches' own.
const args = process.argv.slice(2);
const wanted = args.filter((a, i) => !a.startsWith("-") && !(i > 0 && args[i - 1].startsWith("--") && !args[i - 1].includes("=")));
const names = wanted.length ? wanted : Object.keys(benches);
for (const name of names) {
  const load = benches[name];
  if (!load) {
    console.error(`Unknown benchmark "${name}". Choose from: ${Object.keys(benches).join(", ")}`);
    process.exit(2);
  }
  console.log(`\n=== bench ${name} ===`);
  const mod = (await load()) as { run?: () => Promise<void> };
  await mod.run?.();
}
