/**
 * Starting a real service for tests: a fresh temporary data directory, an ephemeral port,
 * a known key. Nothing is mocked; this is the same createService that `npm run service` runs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createService, type Service } from "./app";
import { type ServiceConfig, parseServiceConfig } from "./config";

export interface TestService {
  service: Service;
  url: string;
  key: string;
  dataDir: string;
  /** fetch against the service with the key (unless headers say otherwise). */
  call(pathname: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestService(overrides: Partial<ServiceConfig> = {}): Promise<TestService> {
  const dataDir = overrides.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "bb-svc-"));
  const key = "test-key-0123456789abcdef";
  const config: ServiceConfig = {
    ...parseServiceConfig([], {}),
    port: 0,
    host: "127.0.0.1",
    dataDir,
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
      if (!overrides.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
