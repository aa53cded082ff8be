/**
 * Record writes on a full or read-only disk (issue 9 item 5, for records): an update or an
 * import answers 507 / 503 in the error shape (no path, no SQL), writes nothing, and the engine
 * serves again once space is back. Real failures: DATA_DIR on a small tmpfs filled up by a
 * filler file, and a data directory bind-mounted read-only (skipped with a printed reason
 * where mounting is not allowed). Embedded engine
 * only: on PostgreSQL the database's disk is the server's.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../testing/test-service";
import { post } from "./testing/http";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-rec-full-"));
const filler = path.join(dataDir, "filler.bin");
let mounted = false;
let svc: TestService;

/** Writes to `filler` until the disk refuses. */
function fillDisk(): void {
  const fd = fs.openSync(filler, "a");
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (let size = chunk.length; size >= 512; ) {
      try {
        fs.writeSync(fd, chunk, 0, size);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
        size = size / 2;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

const salaryOf = async (id: string) => {
  const r = await post(svc, "/v0/record/demo/employees/query", { filter: { and: [{ key: "employee_id", operator: "equal", value: id }] } });
  expect(r.status).toBe(200);
  return r.body.items[0].annual_salary as number;
};

function expectRefusal(r: { status: number; body: any }, status: number, error: string, message: RegExp) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.error).toBe(error);
  expect(r.body.message).toMatch(message);
  expect(r.body.message).not.toContain(dataDir);
  expect(r.body.message).not.toMatch(/\/tmp\/|select|update |insert |\n\s+at /i);
}

describe("record writes on a full disk (a real tmpfs)", () => {
  beforeAll(async () => {
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=48m", "tmpfs", dataDir], { stdio: "pipe" });
      mounted = true;
    } catch (e) {
      console.warn(`write-faults: skipped, cannot mount a tmpfs here (${String((e as Error).message).split("\n")[0]})`);
      return;
    }
    svc = await startTestService({ dataDir, seed: true });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    if (mounted) execFileSync("umount", ["-l", dataDir]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("an update and an import answer 507, write nothing, and writes work again once space is freed", async (ctx) => {
    if (!mounted) return ctx.skip();
    const before = await salaryOf("E00042");
    const count = (await post(svc, "/v0/record/demo/employees/query", { limit: 0 })).body.count as number;
    fillDisk();

    // A bulk update (every Record of the table: more log than the last page of slack holds).
    const bulk = { values: [{ key: "bonus", value: 1 }], filter: { and: [] } };
    expectRefusal(await post(svc, "/v0/record/demo/employees/update", bulk), 507, "insufficient_storage", /disk .*full.*nothing was written/i);

    const csv = "id,n\n" + Array.from({ length: 20_000 }, (_, i) => `k${i},${i}`).join("\n") + "\n";
    const imported = await svc.call("/v0/record/demo/imported/import?primaryKey=id", { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
    expectRefusal({ status: imported.status, body: await imported.json() }, 507, "insufficient_storage", /full/);

    // Reads still work while the disk is full, and show nothing of the refused writes.
    expect(await salaryOf("E00042")).toBe(before);
    expect((await post(svc, "/v0/record/demo/employees/query", { filter: { and: [{ key: "bonus", operator: "equal", value: 1 }] }, limit: 0 })).body.count).toBe(0);

    fs.rmSync(filler);
    expect((await post(svc, "/v0/record/demo/imported/query", {})).status).toBe(404);
    const update = { values: [{ key: "annual_salary", value: before + 1 }], filter: { and: [{ key: "employee_id", operator: "equal", value: "E00042" }] } };
    const ok = await post(svc, "/v0/record/demo/employees/update", update);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await salaryOf("E00042")).toBe(before + 1);
    expect((await post(svc, "/v0/record/demo/employees/query", { limit: 0 })).body.count).toBe(count);
    const again = await svc.call("/v0/record/demo/imported/import?primaryKey=id", { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
    expect(again.status).toBe(200);
    expect((await post(svc, "/v0/record/demo/imported/query", { limit: 0 })).body.count).toBe(20_000);
  }, 120_000);
});

describe("a data directory on read-only storage", () => {
  const roDir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-rec-ro-"));
  let readOnly = false;
  let ro: TestService;

  beforeAll(async () => {
    const first = await startTestService({ dataDir: roDir, seed: true });
    await first.close();
    try {
      execFileSync("mount", ["--bind", roDir, roDir], { stdio: "pipe" });
      execFileSync("mount", ["-o", "remount,bind,ro", roDir], { stdio: "pipe" });
      readOnly = true;
    } catch (e) {
      console.warn(`write-faults: read-only case skipped, cannot mount here (${String((e as Error).message).split("\n")[0]})`);
      return;
    }
    ro = await startTestService({ dataDir: roDir, seed: true, logLevel: "error" });
  }, 60_000);
  afterAll(async () => {
    await ro?.close();
    if (readOnly) execFileSync("umount", [roDir]);
    fs.rmSync(roDir, { recursive: true, force: true });
  });

  it("serves reads; an update and an import answer 503 and write nothing", async (ctx) => {
    if (!readOnly) return ctx.skip();
    svc = ro;
    const before = await salaryOf("E00042");
    const update = { values: [{ key: "annual_salary", value: before + 1 }], filter: { and: [{ key: "employee_id", operator: "equal", value: "E00042" }] } };
    expectRefusal(await post(ro, "/v0/record/demo/employees/update", update), 503, "unavailable", /read-only.*nothing was written/);
    const imported = await ro.call("/v0/record/demo/imported/import?primaryKey=id", { method: "POST", headers: { "content-type": "text/csv" }, body: "id,n\nk1,1\n" });
    expectRefusal({ status: imported.status, body: await imported.json() }, 503, "unavailable", /read-only/);
    expect(await salaryOf("E00042")).toBe(before);
    expect((await post(ro, "/v0/record/demo/imported/query", {})).status).toBe(404);
  });
});
