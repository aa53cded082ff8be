/**
 * `npm run audit` as a user runs it: the real command in a child process, on a real trail. An
 * export piped into another program arrives whole; bad arguments are refused, not ignored.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandArgs } from "../../service/testing/service-entry";
import { openSqliteAuditLog } from "./sqlite-audit-log";
import { CSV_COLUMNS } from "./cli";

const ENTRIES = 400;
const T0 = Date.parse("2026-01-01T00:00:00Z");
let dir: string;

/** Runs `npm run audit -- …` (what package.json runs) on `dir`; stdout read as a pipe, slowly. */
function audit(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...commandArgs("team/audit/cli"), ...args], { env: { ...process.env, DATA_DIR: dir, BASEBOARD_DATABASE_URL: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    // A reader that pauses now and then, like a pipe into a slower program.
    child.stdout.on("data", (d: Buffer) => {
      out.push(d);
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 2);
    });
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, out: Buffer.concat(out).toString("utf8"), err }));
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-audit-cli-"));
  const log = openSqliteAuditLog(dir);
  // ~1 KB each: the export is far more than a pipe holds at once (64 KiB).
  for (let i = 0; i < ENTRIES; i++) {
    const refused = i % 10 === 9;
    await log.append({
      at: T0 + i * 60_000,
      actorEmail: "ada@example.com",
      actorKind: "person",
      address: "127.0.0.1",
      kind: refused ? "refused" : "update",
      endpoint: "POST /api/v0/record/demo/employees/update",
      resource: "table:demo/employees",
      keys: refused ? [] : [`E ${i}`],
      detail: refused ? { endpoint: "update", message: `not allowed ${i}` } : { filter: { and: [{ key: "employee_id", operator: "equal", value: `E ${i}` }] }, values: [{ key: "city", value: "x".repeat(900) }] },
    });
  }
  await log.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("npm run audit", () => {
  it("an export piped into another program arrives whole, every line complete", async () => {
    const r = await audit(["export", "--format", "jsonl"]);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toHaveLength(ENTRIES);
    expect(lines.map((l) => JSON.parse(l).seq)).toEqual(Array.from({ length: ENTRIES }, (_, i) => i + 1));
  });

  it("CSV: one row per change with the message, filter, values, and keys as JSON", async () => {
    const r = await audit(["export", "--format", "csv", "--since", "2026-01-01T01:00:00Z", "--until", "2026-01-01T02:00:00Z"]);
    expect(r.code, r.err).toBe(0);
    const rows = parse(r.out, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0])).toEqual([...CSV_COLUMNS]);
    // Minutes 60 to 120: entries 60 to 120.
    expect(rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: 61 }, (_, i) => i + 61));
    const update = rows.find((row) => row.action === "update")!;
    expect(JSON.parse(update.keys)).toEqual([`E ${Number(update.seq) - 1}`]);
    expect(JSON.parse(update.filter).and[0].value).toBe(`E ${Number(update.seq) - 1}`);
    expect(JSON.parse(update.values)[0].key).toBe("city");
    const refused = rows.find((row) => row.action === "refused")!;
    expect(refused.message).toBe(`not allowed ${Number(refused.seq) - 1}`);
  });

  it("refuses unknown options, options without their value, and bad times, with exit 2 and why", async () => {
    const cases: [string[], RegExp][] = [
      [["export", "--since"], /--since.*argument missing/i],
      [["export", "--format"], /--format.*argument missing/i],
      [["export", "--sinse", "2026-01-01"], /Unknown option '--sinse'/],
      [["verify", "--bogus"], /Unknown option '--bogus'/],
      [["export", "--until", "tomorrow"], /--until is an ISO time/],
      [["export", "--since", "2026-02-30"], /--since is an ISO time.*on a date that exists/],
      [["export", "--format", "xml"], /--format is jsonl or csv/],
      [["exprt"], /Usage: npm run audit/],
    ];
    for (const [args, why] of cases) {
      const r = await audit(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toMatch(why);
      expect(r.out, args.join(" ")).toBe("");
    }
  });

  it("an export into a reader that stops early (| head) ends quietly, exit 0", async () => {
    const r = await new Promise<{ code: number; err: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [...commandArgs("team/audit/cli"), "export", "--format", "csv"], { env: { ...process.env, DATA_DIR: dir, BASEBOARD_DATABASE_URL: "" }, stdio: ["ignore", "pipe", "pipe"] });
      let err = "";
      // Like `head -5`: read a little, then close the pipe.
      child.stdout.once("data", () => child.stdout.destroy());
      child.stderr.on("data", (d) => (err += d));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code: code ?? -1, err }));
    });
    expect(r).toEqual({ code: 0, err: "" });
  });

  it("verify still answers on standard output, exit 0", async () => {
    const r = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile(process.execPath, [...commandArgs("team/audit/cli"), "verify"], { env: { ...process.env, DATA_DIR: dir, BASEBOARD_DATABASE_URL: "" } }, (e, out) => resolve({ code: e ? Number(e.code) : 0, out })),
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`verifies: ${ENTRIES} entries`));
  });

  it("verify says where the chain starts once older entries were dropped, and whether retention explains it", async () => {
    const log = openSqliteAuditLog(dir);
    // Entries at minutes 0 to 99 are older than minute 100.
    expect(await log.dropOlderThan(T0 + 100 * 60_000)).toBe(100);
    await log.close();
    const run = (env: Record<string, string>) =>
      new Promise<string>((resolve) =>
        execFile(process.execPath, [...commandArgs("team/audit/cli"), "verify"], { env: { ...process.env, DATA_DIR: dir, BASEBOARD_DATABASE_URL: "", ...env } }, (_e, out) => resolve(out)),
      );
    const unexplained = await run({ BASEBOARD_AUDIT_RETENTION_DAYS: "" });
    expect(unexplained).toMatch(new RegExp(`verifies: ${ENTRIES - 100} entries`));
    expect(unexplained).toMatch(/starts after entry 100: entries 1 to 100 were dropped behind a checkpoint; no retention is set here.*someone removed them/);
    expect(await run({ BASEBOARD_AUDIT_RETENTION_DAYS: "30" })).toMatch(/retention \(BASEBOARD_AUDIT_RETENTION_DAYS=30\) drops old entries/);

    // The checkpoint moved over entries still stored (101 to 150), one of them edited: that is
    // no retention, and verify says so (review 37a #2: it passed, calling them dropped).
    const file = new Database(path.join(dir, "audit.sqlite"));
    try {
      const at150 = file.prepare<[], { hash: string }>("SELECT hash FROM audit WHERE seq = 150").get()!;
      file.prepare("UPDATE audit SET actor_email = 'forged@example.com' WHERE seq = 120").run();
      file.prepare("UPDATE audit_checkpoint SET seq = 150, hash = ? WHERE id = 1").run(at150.hash);
    } finally {
      file.close();
    }
    const moved = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile(process.execPath, [...commandArgs("team/audit/cli"), "verify"], { env: { ...process.env, DATA_DIR: dir, BASEBOARD_DATABASE_URL: "" } }, (e, out) => resolve({ code: e ? Number(e.code) : 0, out })),
    );
    expect(moved.code).toBe(1);
    expect(moved.out).toMatch(/entry 101 is still stored behind the checkpoint \(entry 150\).*the checkpoint was moved over entries that were kept/);
  });

  it("no trail where DATA_DIR points: says so, exit 1, and makes none (review 50a #1: it made an empty one and said it verified)", async () => {
    const real = dir;
    dir = path.join(os.tmpdir(), `bb-audit-nowhere-${process.pid}`, "x");
    try {
      for (const args of [["verify"], ["export"]]) {
        const r = await audit(args);
        expect(r.code, args[0]).toBe(1);
        expect(r.err).toContain(`There is no activity log at ${path.join(dir, "audit.sqlite")}`);
        expect(r.out).toBe("");
      }
      expect(fs.existsSync(dir)).toBe(false);
    } finally {
      dir = real;
    }
  });

  it("an empty trail file: says so, exit 1, and leaves it empty (review 51a #2: it was filled with new tables, and verified)", async () => {
    const real = dir;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-audit-empty-"));
    try {
      fs.writeFileSync(path.join(dir, "audit.sqlite"), "");
      for (const args of [["verify"], ["export"]]) {
        const r = await audit(args);
        expect(r.code, args[0]).toBe(1);
        expect(r.err).toContain(`The activity log file at ${path.join(dir, "audit.sqlite")} is empty (0 bytes)`);
        expect(r.out).toBe("");
      }
      expect(fs.statSync(path.join(dir, "audit.sqlite")).size).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      dir = real;
    }
  });

  it("a PostgreSQL log that cannot be reached: says which setting and what to check, exit 1 (review 51a #6: the driver's words, exit 2)", async () => {
    const r = await audit(["verify"], { BASEBOARD_DATABASE_URL: "postgres://nobody@127.0.0.1:9/none" });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^Cannot open the database BASEBOARD_DATABASE_URL names \(connect ECONNREFUSED 127\.0\.0\.1:9\): check that PostgreSQL is running there/);
  });

  it("a trail file cut short: says it is damaged and to restore it, exit 1 (review 50a #2)", async () => {
    const real = dir;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-audit-cut-"));
    try {
      const whole = fs.readFileSync(path.join(real, "audit.sqlite"));
      fs.writeFileSync(path.join(dir, "audit.sqlite"), whole.subarray(0, 100));
      const r = await audit(["verify"]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^The activity log file \(DATA_DIR\/audit\.sqlite, DATA_DIR=.*\) is damaged and cannot be read \(SQLite: .*\): restore it from a backup\. It was not verified; nothing was changed\./);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      dir = real;
    }
  });
});
