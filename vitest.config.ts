import { defineConfig } from "vitest/config";

/**
 * The storage HTTP suites that run on both blob backends: once in `unit` on disk, once in
 * `storage-s3` against a real S3-compatible server (s3rver on loopback) started by its global setup.
 */
const BOTH_BACKENDS = ["src/server/service/storage/*.http.test.ts", "src/server/service/storage/storage-{access,read,resize,signed,upload,budget,faults}.test.ts"];

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts", "src/**/*.test.tsx"] } },
      {
        extends: true,
        test: {
          name: "storage-s3",
          include: BOTH_BACKENDS,
          env: { TEST_STORAGE_BACKEND: "s3" },
          globalSetup: ["src/server/service/blobs/testing/s3rver-global-setup.ts"],
        },
      },
    ],
  },
});
