import { defineConfig } from "vitest/config";
import { LongFirstSequencer } from "./vitest.sequencer";

/**
 * Every test runs in `embedded` (DuckDB, files on disk). The HTTP suites of records and storage
 * (conformance, property, paging, concurrency, durability after SIGKILL, import, migration from
 * the SQLite data directory) run again in `postgres`, on a real PostgreSQL (a scratch cluster
 * started by that project's globalSetup); `*.pg.test.ts` files test what only PostgreSQL has
 * (several instances on one database). The storage suites run again in `storage-s3`, against a
 * real S3-compatible server (s3rver on loopback) started by its globalSetup.
 */
const bothEngines = [
  "src/server/service/records/**/*.http.test.ts",
  "src/server/service/storage/**/*.http.test.ts",
  // The storage suites that read or write object metadata; not the resize budget, resize and
  // blob-fault suites, which test files and sharp the same way on either engine (time budget).
  "src/server/service/storage/storage-{access,crash,read,signed,upload}.test.ts",
  "src/server/service/migration/**/*.http.test.ts",
];
const postgresOnly = ["src/**/*.pg.test.ts"];
const bothBackends = [
  "src/server/service/storage/*.http.test.ts",
  "src/server/service/storage/storage-{access,read,resize,signed,upload,budget,faults,sweep}.test.ts",
];

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    // Most suites wait on real servers, child processes and disks rather than compute: four
    // forks on two cores took the whole run from 320 s to 177 s with the same results.
    maxWorkers: 4,
    // A fork keeps the modules it loaded from one file to the next (test files are still
    // loaded afresh): importing DuckDB, sharp, Fastify and the AWS SDK again for each of 224
    // files took 184 s of the run's time, 66 s without (the whole run 293 → 252 s on two
    // cores). Tests that change process.env or spy on a module put it back in `finally`.
    isolate: false,
    sequence: { sequencer: LongFirstSequencer },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "embedded",
          include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
          exclude: postgresOnly,
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: [...bothEngines, ...postgresOnly],
          env: { BB_TEST_ENGINE: "postgres" },
          globalSetup: ["src/server/service/engines/postgres/testing/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "storage-s3",
          include: bothBackends,
          env: { TEST_STORAGE_BACKEND: "s3" },
          globalSetup: ["src/server/service/blobs/testing/s3rver-global-setup.ts"],
        },
      },
    ],
  },
});
