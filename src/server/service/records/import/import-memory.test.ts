/**
 * Issue 21 item 1: an import the embedded engine has too little memory for fails in the one
 * error shape, says what to change (DUCKDB_MEMORY_LIMIT, in our words, not DuckDB's SET advice),
 * and leaves nothing: no Table. Embedded only (the
 * postgres project does not list this file).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestService, type TestService } from "../../testing/test-service";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ duckdb: { memoryLimit: "8MB", threads: 1 }, seed: false, maxUploadBytes: 64 * 1024 * 1024 });
});
afterAll(() => svc.close());

const csv = (text: string, table: string) =>
  svc.call(`/v0/record/${table}/import`, { method: "POST", headers: { "content-type": "text/csv" }, body: text });

it("an import beyond DUCKDB_MEMORY_LIMIT: 503 naming the setting, nothing imported", async () => {
  const lines = ["id,n"];
  for (let i = 0; i < 400_000; i++) lines.push(`E${String(i).padStart(9, "0")},${i}`);
  const res = await csv(lines.join("\n"), "demo/big");
  const body = (await res.json()) as { error: string; subCode: number; message: string };
  expect(res.status).toBe(503);
  expect(body.error).toBe("unavailable");
  expect(body.message).toContain("DUCKDB_MEMORY_LIMIT (now 8MB");
  expect(body.message).not.toMatch(/SET |duckdb\.org|pin block/);
  expect((await svc.call("/v0/record/demo/big/fields")).status).toBe(404);
}, 120_000);
