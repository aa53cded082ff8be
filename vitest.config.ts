import { defineConfig } from "vitest/config";

/**
 * The HTTP suites of records and storage (conformance, property, paging, concurrency,
 * durability after SIGKILL, import, migration from the SQLite data directory) run twice: on the embedded engine with everything else, and on a
 * real PostgreSQL (a scratch cluster started by the `postgres` project's globalSetup).
 * `*.pg.test.ts` files test what only PostgreSQL has (several instances on one database).
 */
const bothEngines = [
  "src/server/service/records/**/*.http.test.ts",
  "src/server/service/storage/**/*.http.test.ts",
  "src/server/service/storage/**/storage-*.test.ts",
  "src/server/service/migration/**/*.http.test.ts",
];
const postgresOnly = ["src/**/*.pg.test.ts"];

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
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
    ],
  },
});
