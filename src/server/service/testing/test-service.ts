/**
 * Starting a real service for tests: a fresh temporary data directory, an ephemeral port,
 * a known key. Nothing is mocked; this is the same createService that `npm run service` runs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createService, type Service } from "../app";
import { type ServiceConfig, parseServiceConfig } from "../config";
import { engineForTest } from "../engines/postgres/testing/test-engine";
import { parsePostgresOptions } from "../engines/postgres/connection";

export interface TestService {
  service: Service;
  url: string;
  key: string;
  dataDir: string;
  /** fetch against the service with the key (unless headers say otherwise). */
  call(pathname: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The engine part of a test service's configuration for a data directory: nothing on the
 * embedded engine; in the `postgres` project, that directory's own database. For tests that
 * open the engine themselves (to prepare data a service then starts on).
 */
export async function testEngineConfig(dataDir: string): Promise<Pick<ServiceConfig, "postgres">> {
  const engine = await engineForTest(dataDir);
  return { postgres: engine.databaseUrl ? parsePostgresOptions(engine.databaseUrl, {}) : undefined };
}

/** The same, as environment variables for a service started as a child process. */
export async function testEngineEnv(dataDir: string): Promise<{ DATABASE_URL?: string }> {
  const engine = await engineForTest(dataDir);
  return engine.databaseUrl ? { DATABASE_URL: engine.databaseUrl } : {};
}

export async function startTestService(overrides: Partial<ServiceConfig> = {}): Promise<TestService> {
  const dataDir = overrides.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "bb-svc-"));
  const key = "test-key-0123456789abcdef";
  // In the `postgres` test project every service gets a database of its own on the scratch cluster.
  // A restart on the same directory (overrides.dataDir) finds the same database again.
  const engine = "postgres" in overrides ? undefined : await engineForTest(dataDir);
  const config: ServiceConfig = {
    ...parseServiceConfig([], {}),
    postgres: engine?.databaseUrl ? parsePostgresOptions(engine.databaseUrl, {}) : undefined,
    port: 0,
    host: "127.0.0.1",
    dataDir,
    // Its own, in its directory: the default is worked out from DATA_DIR (unset: ./.data), so
    // every test service shared one file, and a rotation in one project raced another's.
    signingKeysFile: path.join(dataDir, "storage-signing-keys.json"),
    apiKeys: [{ key }],
    logLevel: "silent",
    ...overrides,
  };
  const service = await createService(config);
  const url = await service.listen();
  return {
    service,
    url,
    key,
    dataDir,
    call(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("x-api-key")) headers.set("x-api-key", key);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(init.json);
      }
      return fetch(url + pathname, { ...init, headers, body, method: init.method ?? (body ? "POST" : "GET") });
    },
    async close() {
      await service.close();
      if (!overrides.dataDir) {
        await engine?.release();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
