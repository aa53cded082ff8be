/**
 * Failed sign-ins are recorded as a count per account and address (issue 19 item 1), with a
 * real trail on disk: the first of a minute at once, the rest of that minute as one entry with
 * their count, so a guessing run is a few entries rather than one per guess.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import type { Upstream } from "../../proxy/forward";
import { present } from "./audit-api";
import type { AuditLog } from "./audit-log";
import { createAuditor, SIGN_IN_WINDOW_MS } from "./auditor";
import { openSqliteAuditLog } from "./sqlite-audit-log";

let log: AuditLog | undefined;
const dirs: string[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await log?.close();
  log = undefined;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), "bb-signin-")));
  return dirs[dirs.length - 1];
};

const unused = new Proxy({}, { get: () => () => Promise.reject(new Error("the upstream is not asked")) }) as Upstream;

async function failures() {
  const rows = await log!.list({ kinds: ["sign-in-failed"], limit: 100 });
  return rows.reverse().map((e) => present(e, undefined)).map((p) => ({ actor: p.actor, address: p.address, count: p.count }));
}

it("counts per account and address: the first at once, the rest of the minute as one entry", async () => {
  log = openSqliteAuditLog(tempDir());
  const auditor = createAuditor({ log, upstream: unused, tableOf: async () => ({ beforeImages: false }) });
  for (let i = 0; i < 5; i++) await auditor.signInFailed("eve@example.com", "10.0.0.1");
  await auditor.signInFailed("eve@example.com", "10.0.0.2");
  await auditor.signInFailed("", "10.0.0.1");
  // Written at once: the first of each account and address.
  expect(await failures()).toEqual([
    { actor: "eve@example.com", address: "10.0.0.1", count: 1 },
    { actor: "eve@example.com", address: "10.0.0.2", count: 1 },
    { actor: "(no email)", address: "10.0.0.1", count: 1 },
  ]);
  await auditor.flush();
  expect((await failures()).slice(3)).toEqual([{ actor: "eve@example.com", address: "10.0.0.1", count: 4 }]);
  // Nothing left to write.
  await auditor.flush();
  expect(await failures()).toHaveLength(4);
});

it("a minute later the count starts again; the minute's rest is written when it ends", async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  log = openSqliteAuditLog(tempDir());
  const auditor = createAuditor({ log, upstream: unused, tableOf: async () => ({ beforeImages: false }) });
  await auditor.signInFailed("ada@example.com", "10.0.0.9");
  await auditor.signInFailed("ada@example.com", "10.0.0.9");
  await auditor.signInFailed("ada@example.com", "10.0.0.9");
  await vi.advanceTimersByTimeAsync(SIGN_IN_WINDOW_MS + 10);
  expect((await failures()).map((f) => f.count)).toEqual([1, 2]);
  await auditor.signInFailed("ada@example.com", "10.0.0.9");
  expect((await failures()).map((f) => f.count)).toEqual([1, 2, 1]);
  await auditor.flush();
});
