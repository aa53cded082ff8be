/**
 * `npm run service -- --port P --data-dir D`: the local service alone. Forked by the launcher
 * (an IPC channel is open), it is the supervised child instead: see launcher/supervised-child.ts.
 */
import { parseServiceConfig } from "./config";
import { createService } from "./app";
import { runSupervisedChild } from "../supervised-child";

if (process.send) {
  runSupervisedChild(async ({ port, dataDir, apiKeys, publicBaseUrl }) => {
    const config = { ...parseServiceConfig([], process.env), port, dataDir, apiKeys, publicBaseUrl };
    const service = await createService(config);
    return { url: await service.listen(), close: () => service.close() };
  });
} else {
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
}
