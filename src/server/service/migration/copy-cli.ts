/**
 * `DATABASE_URL=postgres://… npm run copy-to-postgres -- [--data-dir D]`: copies the embedded
 * database of DATA_DIR (stop the service first: the file is locked while it runs) into the
 * empty PostgreSQL database DATABASE_URL names. Then start the service with DATABASE_URL and
 * the same DATA_DIR (its stored files stay there).
 */
import { parseServiceConfig } from "../config";
import { openEngine } from "../engines/open";
import { redactUrl } from "../engines/postgres/connection";
import { copyEngine } from "./copy-engine";
import { migrateFromSqlite } from "./from-sqlite";

async function main(): Promise<number> {
  const config = parseServiceConfig(process.argv.slice(2), process.env);
  if (!config.postgres) {
    console.error("Set DATABASE_URL=postgres://… to the (empty) PostgreSQL database to copy into.");
    return 2;
  }
  const source = await openEngine({ ...config, postgres: undefined });
  try {
    // A directory still in the SQLite format of an older version is brought up to date first.
    await migrateFromSqlite(config.dataDir, source);
    const target = await openEngine(config);
    try {
      const started = performance.now();
      const report = await copyEngine(source, target, (t, n) => console.error(`${t.databaseId}/${t.slug}: ${n.toLocaleString("en-US")} Records`));
      const s = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `Copied ${report.tables} Tables, ${report.records.toLocaleString("en-US")} Records and ${report.objects} stored object versions from ${config.dataDir} to ${redactUrl(config.postgres.url)} in ${s} s.`,
      );
      return 0;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`Copy failed (nothing was written): ${(e as Error).message}`);
    process.exit(1);
  },
);
