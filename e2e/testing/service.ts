/**
 * Helpers for end-to-end tests: talk to the real local service directly (with the key the
 * launcher generated into the e2e data directory) to set up and check what the UI did.
 */
import fs from "node:fs";
import path from "node:path";
import { E2E_DATA_DIR, E2E_SERVICE_PORT } from "../../playwright.config";

export const serviceUrl = `http://127.0.0.1:${E2E_SERVICE_PORT}`;

export function serviceKey(): string {
  return fs.readFileSync(path.join(E2E_DATA_DIR, "api-key"), "utf8").trim();
}

export async function serviceCall(pathname: string, json?: unknown, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("x-api-key", serviceKey());
  if (json !== undefined) headers.set("content-type", "application/json");
  return fetch(serviceUrl + pathname, {
    ...init,
    method: init.method ?? (json !== undefined ? "POST" : "GET"),
    headers,
    body: json !== undefined ? JSON.stringify(json) : init.body,
  });
}
