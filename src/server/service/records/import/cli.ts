/**
 * `npm run import -- FILE.csv --table DATABASE/TABLE [--primary-key FIELD] [--type FIELD=TYPE …]`
 * Imports into the engine DATA_DIR (or `--data-dir`) names, with a progress line on stderr.
 * The embedded engine's file is locked by a running service: stop it first, or use the HTTP
 * extension (POST /v0/record/{db}/{table}/import), which runs this same code.
 */
import { commandConfig, runCommand, withEngine } from "../../command";
import { migrateFromSqlite } from "../../migration/from-sqlite";
import { SqlRecordStore } from "../store";
import { type ImportArgs, parseImportArgs } from "./args";
import { importCsv } from "./csv-import";
import { progressPrinter } from "./progress-line";

runCommand("Import failed", async () => {
  let args: ImportArgs;
  try {
    args = parseImportArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\nusage: npm run import -- FILE.csv --table DATABASE/TABLE [--primary-key FIELD] [--type FIELD=TYPE …]`);
    return 2;
  }
  const config = commandConfig();
  return withEngine(config, async (engine) => {
    await migrateFromSqlite(config.dataDir, engine);
    const store = await SqlRecordStore.open(engine);
    const started = performance.now();
    const tty = process.stderr.isTTY;
    const printer = progressPrinter(tty);
    const result = await importCsv(store, args.file, {
      ...args.options,
      onProgress: (p) => {
        const line = printer(p);
        if (line !== undefined) process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
      },
    });
    if (tty) process.stderr.write("\n");
    if (!result.ok) {
      console.error(`Nothing was imported: ${result.error.message}`);
      return 1;
    }
    const { inserted, updated, created } = result.value;
    const s = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${created ? "Created" : "Updated"} ${args.options.databaseId}/${args.options.slug}: ${inserted.toLocaleString("en-US")} inserted, ${updated.toLocaleString("en-US")} updated in ${s} s.`);
    return 0;
  });
});
