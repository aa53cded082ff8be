/**
 * PostgreSQL going away under a running service (issue 11 item 1): every request that needs
 * the database answers 503 `unavailable` in the one error shape, saying the database is
 * unreachable, with no SQL in it; nothing half-written; the service answers again once the
 * server is back, without a restart. (A Table's Fields are answered from the registry in
 * memory, so they stay available.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestService, startTestService } from "../../testing/test-service";
import { upload } from "../../storage/testing/storage-service";
import { parsePostgresOptions } from "./connection";
import { type ScratchCluster, startScratchCluster } from "./scratch-cluster";
import { startServiceProcess } from "../../testing/service-process";

let cluster: ScratchCluster;
let svc: TestService;

beforeAll(async () => {
  // A cluster of its own (the shared one must stay up for the other files), halted like a
  // crash: with commits made durable (synchronous_commit, unlike the scratch default), what was
  // acknowledged before must still be there after the restart.
  cluster = await startScratchCluster({ port: 55461, settings: { synchronous_commit: "on" } });
  svc = await startTestService({ postgres: parsePostgresOptions(cluster.adminUrl, { DATABASE_CONNECT_TIMEOUT_MS: "2000" }) });
}, 120_000);

afterAll(async () => {
  await svc?.close();
  await cluster?.stop();
});

const EMP = "/v0/record/demo/employees";
const byId = (id: unknown) => ({ and: [{ key: "employee_id", operator: "equal", value: id }] });
const query = () => svc.call(`${EMP}/query`, { json: { limit: 1, filter: { and: [{ key: "full_name", operator: "contains", value: "a" }] } } });

async function expectUnreachable(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  // When to try again, as decisions §9 asks of a part restarting (review 39a #8: none was said).
  expect(res.headers.get("retry-after")).toBe("5");
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "message", "subCode"]);
  expect(body.error).toBe("unavailable");
  expect(String(body.message)).toMatch(/database is unreachable/);
  expect(String(body.message)).not.toMatch(/select|insert|update .* set|ECONN|socket|postgres/i);
}

describe("a service whose PostgreSQL goes away", () => {
  it("answers 503 unavailable in the error shape while it is down, and again normally once it is back", async () => {
    const before = await query();
    expect(before.status).toBe(200);
    const { items } = (await before.json()) as { items: Record<string, unknown>[] };
    const id = items[0].employee_id;
    const ok = await upload(svc, "public-assets", "before.txt", "kept", { type: "text/plain" });
    expect(ok.status).toBe(200);

    await cluster.halt();
    try {
      await expectUnreachable(await query());
      await expectUnreachable(await svc.call(`${EMP}/update`, { json: { values: [{ key: "full_name", value: "Lost" }], filter: byId(id) } }));
      await expectUnreachable(await upload(svc, "public-assets", "during.txt", "never stored", { type: "text/plain" }));
    } finally {
      await cluster.restart();
    }

    // The pool reconnects on its own: no restart of the service.
    const after = await query();
    expect(after.status).toBe(200);
    const check = await svc.call(`${EMP}/query`, { json: { filter: byId(id) } });
    const row = ((await check.json()) as { items: Record<string, unknown>[] }).items[0];
    expect(row.full_name).toBe(items[0].full_name);
    const kept = await fetch(`${svc.url}/v0/storage/public/public-assets/before.txt`);
    expect(await kept.text()).toBe("kept");
    const lost = await fetch(`${svc.url}/v0/storage/public/public-assets/during.txt`);
    expect(lost.status).toBe(404);
  });
});

describe("a service started while its PostgreSQL is unreachable", () => {
  it("exits with one line naming the database without its password, no stack", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-unreach-"));
    try {
      // Port 1 on loopback: refused at once.
      const started = startServiceProcess({ DATABASE_URL: "postgres://baseboard:s3cret-pw@127.0.0.1:1/app", DATA_DIR: dataDir });
      const err = (await started.then(
        (p) => p.stop().then(() => new Error("it started")),
        (e: unknown) => e,
      )) as Error;
      expect(err.message).toMatch(/exited \(1\)/);
      expect(err.message).toContain("The service cannot start: the PostgreSQL database at postgres://baseboard:***@127.0.0.1:1/app is unreachable: connect ECONNREFUSED");
      expect(err.message).not.toContain("s3cret-pw");
      expect(err.message).not.toMatch(/\n\s+at /);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
