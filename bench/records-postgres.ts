/**
 * The records benchmark on PostgreSQL (`npm run bench -- records --engine postgres`): the
 * DATABASE_URL given (its database should be empty), or else a scratch cluster started for the
 * run. The scratch cluster keeps PostgreSQL's durable defaults (fsync, full-page writes,
 * synchronous commit on), unlike the tests' cluster, so the import figure is a real one.
 * The service child and the direct measurements use the same database; "direct" is the same
 * SQL through `pg` itself.
 */
import pg from "pg";
import { startScratchCluster } from "../src/server/service/engines/postgres/scratch-cluster";
import type { BenchEngine } from "./records-support";

let url: string | undefined = process.env.DATABASE_URL;

export const postgresBench: BenchEngine = {
  ratioTarget: 1.3,
  async prepare() {
    if (url) return async () => undefined;
    const cluster = await startScratchCluster({
      port: Number(process.env.BENCH_PG_PORT ?? 55499),
      settings: { fsync: "on", full_page_writes: "on", synchronous_commit: "on", shared_buffers: "512MB", work_mem: "32MB", max_wal_size: "4GB" },
    });
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query("CREATE DATABASE bench");
    await admin.end();
    url = cluster.urlFor("bench");
    console.log("PostgreSQL: a scratch cluster (durable settings) on a Unix socket");
    // Forgotten with the cluster: the next bench of the run (records-writes) starts its own.
    return async () => {
      url = undefined;
      await cluster.stop();
    };
  },
  env(dataDir) {
    if (!url) throw new Error("postgresBench.prepare() first");
    return { DATA_DIR: dataDir, DATABASE_URL: url };
  },
  directDataDir: (dataDir) => dataDir,
  // The baseline: the same SQL through `pg` directly, statement after statement on one
  // connection (the service runs them in one read-only snapshot transaction on a pooled one).
  async directDriver() {
    if (!url) throw new Error("postgresBench.prepare() first");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
      label: "the same SQL through pg directly",
      async run(queries) {
        for (const q of queries) await client.query({ text: q.sql, values: q.parameters as unknown[], rowMode: "array" });
      },
      close: () => client.end(),
    };
  },
};
