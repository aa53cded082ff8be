export {};
/**
 * `npm run bench -- <name>`: runs one benchmark (or all with no name). Each prints its measures
 * as ratios beside a baseline measured in the same run; none of them is a test.
 */
const benches: Record<string, () => Promise<unknown>> = {
  records: async () => {
    await (await import("./records")).run();
    return import("./records-writes");
  },
  "records-writes": () => import("./records-writes"),
  storage: async () => {
    await (await import("./storage")).run();
    await (await import("./storage-zip")).run();
    await (await import("./storage-resume")).run();
    return import("./storage-jobs");
  },
  "storage-resume": () => import("./storage-resume"),
  "storage-jobs": () => import("./storage-jobs"),
  "storage-zip": () => import("./storage-zip"),
  proxy: () => import("./proxy"),
  audit: () => import("./audit"),
  live: () => import("./live"),
  ui: () => import("./ui"),
  "ui-scale": () => import("./ui-scale"),
  soak: () => import("./soak"),
};

// Names only: options and their values (`--engine postgres`) are the benchmarks' own.
const wanted = process.argv.slice(2).filter((a, i, all) => !a.startsWith("-") && !(all[i - 1]?.startsWith("--") && !all[i - 1].includes("=")));
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
