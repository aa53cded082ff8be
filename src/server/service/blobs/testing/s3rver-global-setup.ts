/**
 * Vitest global setup of the `storage-s3` project: one real S3-compatible server (s3rver) over
 * HTTP on a loopback ephemeral port, its files in a temp dir, for the whole run. Each test
 * service gets its own bucket in it (storage/testing/storage-service.ts). Nothing of ours is faked: the
 * service talks to it through the AWS SDK exactly as it would talk to S3 or MinIO.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    s3Endpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "bb-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory, silent: true });
  const { port } = await server.run();
  project.provide("s3Endpoint", `http://127.0.0.1:${port}`);
  return async () => {
    await server.close();
    fs.rmSync(directory, { recursive: true, force: true });
  };
}
