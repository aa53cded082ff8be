/** `npm run service -- --port P --data-dir D`: the local service alone. */
import { parseServiceConfig } from "./config";
import { createService } from "./app";

const config = parseServiceConfig(process.argv.slice(2), process.env);
const service = await createService(config).catch((e: unknown) => {
  // A start-up failure (the database unreachable, a locked data file) in one line, no stack.
  console.error(`The service cannot start: ${(e as Error).message}`);
  process.exit(1);
});
const url = await service.listen();
console.log(`Local Record and Storage Service listening on ${url} (data in ${config.dataDir})`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) process.exit(1);
    stopping = true;
    await service.close();
    process.exit(0);
  });
}
