/**
 * `DATABASE_URL=postgres://… npm run copy-to-postgres -- [--data-dir D]`: copies the embedded
 * database of DATA_DIR (stop the service first: the file is locked while it runs) into the
 * empty PostgreSQL database DATABASE_URL names. Then start the service with DATABASE_URL and
 * the same DATA_DIR (its stored files stay there).
 */
import { commandConfig, runCommand, withEngine } from "../command";
import { redactUrl } from "../engines/postgres/connection";
import { copyEngine } from "./copy-engine";
import { migrateFromSqlite } from "./from-sqlite";

runCommand("Copy failed (nothing was written)", async () => {
  const config = commandConfig();
  const postgres = config.postgres;
  if (!postgres) {
    console.error("Set DATABASE_URL=postgres://… to the (empty) PostgreSQL database to copy into.");
    return 2;
  }
  return withEngine({ ...config, postgres: undefined }, async (source) => {
    // A directory still in the SQLite format of an older version is brought up to date first.
    await migrateFromSqlite(config.dataDir, source);
    return withEngine(config, async (target) => {
      const started = performance.now();
      const report = await copyEngine(source, target, (t, n) => console.error(`${t.databaseId}/${t.slug}: ${n.toLocaleString("en-US")} Records`));
      const s = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `Copied ${report.tables} Tables, ${report.records.toLocaleString("en-US")} Records and ${report.objects} stored object versions from ${config.dataDir} to ${redactUrl(postgres.url)} in ${s} s.`,
      );
      return 0;
    });
  });
});
