/**
 * `npm run import` as a user runs it, on the embedded engine (the postgres project does not
 * list this file): a database another process holds, and memory settings, answered in our words.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandArgs } from "../../testing/service-entry";
import { parseServiceConfig, sizeBytes } from "../../config";
import { memoryAdvice } from "../../engines/duckdb/engine";

let dir: string;
let csv: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-import-cli-"));
  csv = path.join(dir, "people.csv");
  fs.writeFileSync(csv, "id,name\n1,Ada\n2,Grace\n");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function runImport(env: NodeJS.ProcessEnv, file = csv): Promise<{ code: number; err: string; out: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [...commandArgs("service/records/import/cli"), file, "--table", "demo/people"], { env: { ...process.env, DATABASE_URL: "", ...env } }, (e, out, err) =>
      resolve({ code: e ? Number(e.code) : 0, err, out }),
    ),
  );
}

describe("npm run import", () => {
  it("a database another process holds: who holds it, and what to do, not DuckDB's lock text", async () => {
    const data = path.join(dir, "held");
    // Another process with the database open (as a running Baseboard would have it).
    const holder: ChildProcess = spawn(process.execPath, ["-e", `
      const { DuckDBInstance } = require("@duckdb/node-api");
      require("node:fs").mkdirSync(${JSON.stringify(data)}, { recursive: true });
      DuckDBInstance.create(${JSON.stringify(path.join(data, "baseboard.duckdb"))}).then(() => { console.log("open"); setInterval(() => {}, 1000); });
    `], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      await new Promise<void>((resolve) => holder.stdout!.once("data", () => resolve()));
      const r = await runImport({ DATA_DIR: data });
      expect(r.code).toBe(1);
      expect(r.err).toContain(`the database in ${data} is open in another process (PID ${holder.pid})`);
      expect(r.err).toMatch(/stop it first, or import through it/);
      expect(r.err).not.toMatch(/Conflicting lock|IO Error/);
    } finally {
      holder.kill();
    }
  }, 60_000);

  it("each import is in the activity log, by the command, with what it overwrote; a failed one too; none when the log cannot be written", async () => {
    const data = path.join(dir, "trail");
    const made = await runImport({ DATA_DIR: data });
    expect(made.code).toBe(0);
    // A new Table's types, as read from the file, are said.
    expect(made.out).toContain("Fields, as read from the file: id number (primary key), name text.");
    fs.writeFileSync(csv, "id,name\n1,Ada Lovelace\n2,Grace\n3,Edsger\n");
    const again = await runImport({ DATA_DIR: data });
    expect(again.code).toBe(0);
    // Grace was as the file has her: named, not changed.
    expect(again.out).toContain("1 inserted, 2 updated (1 changed, 1 already as the file has them)");
    fs.writeFileSync(csv, "id,name\n1,Ada\n1\n");
    expect((await runImport({ DATA_DIR: data })).code).toBe(1);
    const trail = new Database(path.join(data, "audit.sqlite"), { readonly: true });
    const rows = trail.prepare("SELECT actor_email, kind, keys, detail FROM audit ORDER BY seq").all() as { actor_email: string; kind: string; keys: string; detail: string }[];
    trail.close();
    expect(rows.map((r) => r.kind)).toEqual(["import", "outcome", "import", "outcome", "import", "outcome"]);
    expect(rows.every((r) => r.actor_email === `npm run import (${os.userInfo().username})`)).toBe(true);
    const outcomes = rows.filter((r) => r.kind === "outcome").map((r) => JSON.parse(r.detail) as Record<string, unknown>);
    expect(outcomes[0]).toMatchObject({ outcome: "applied", inserted: 2, updated: 0, added: ["1", "2"] });
    expect(outcomes[1]).toMatchObject({ outcome: "applied", inserted: 1, updated: 2, changed: 1, changes: { fields: ["id", "name"], rows: [[1, "Ada", "Ada Lovelace"]] } });
    expect(outcomes[2]).toMatchObject({ outcome: "failed", status: 400 });
    expect(String(outcomes[2].message)).toMatch(/^line 3: /);
    // A log that cannot be written (its file is a folder here): nothing is imported.
    const closed = path.join(dir, "no-trail");
    fs.mkdirSync(path.join(closed, "audit.sqlite"), { recursive: true });
    fs.writeFileSync(csv, "id,name\n1,Ada\n2,Grace\n");
    const r = await runImport({ DATA_DIR: closed });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^Nothing was imported: The activity log cannot be written right now/m);
    expect(fs.existsSync(path.join(closed, "baseboard.duckdb")) ? await tableCount(closed) : 0).toBe(0);
  }, 60_000);

  it("a file that is not there, or a directory, is said as such, and nothing reaches the activity log", async () => {
    const data = path.join(dir, "nofile");
    const missing = await runImport({ DATA_DIR: data }, path.join(dir, "nope.csv"));
    expect(missing).toMatchObject({ code: 2, err: expect.stringContaining(`No such file: ${path.join(dir, "nope.csv")}. Check the path.`) });
    expect(missing.err).not.toMatch(/activity log/);
    const folder = await runImport({ DATA_DIR: data }, dir);
    expect(folder).toMatchObject({ code: 2, err: expect.stringContaining("is not a file (it is a directory)") });
    expect(folder.err).not.toMatch(/EISDIR|at /);
    expect(fs.existsSync(path.join(data, "audit.sqlite"))).toBe(false);
  }, 60_000);

  it("a memory limit too small to run at all is refused at start, in our words", async () => {
    const r = await runImport({ DATA_DIR: path.join(dir, "tiny"), DUCKDB_MEMORY_LIMIT: "0MB" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("DUCKDB_MEMORY_LIMIT: at least 8MB");
    expect(r.err).not.toMatch(/SET threads|Out of Memory Error/);
  }, 60_000);
});

/** How many Tables the registry in a data directory lists. */
async function tableCount(data: string): Promise<number> {
  const instance = await DuckDBInstance.create(path.join(data, "baseboard.duckdb"));
  try {
    const c = await instance.connect();
    const listed = (await c.runAndReadAll("select count(*) from duckdb_tables() where table_name = 'bb_record_tables'")).getRows()[0][0];
    if (Number(listed) === 0) return 0;
    return Number((await c.runAndReadAll("select count(*) from bb_record_tables")).getRows()[0][0]);
  } finally {
    instance.closeSync();
  }
}

describe("memory sizes and advice", () => {
  it("reads sizes as DuckDB does (MB: 1000², MiB: 1024²)", () => {
    expect(sizeBytes("512MB")).toBe(512e6);
    expect(sizeBytes("2 GiB")).toBe(2 * 1024 ** 3);
    expect(sizeBytes("1.5GB")).toBe(1.5e9);
    expect(sizeBytes("lots")).toBeUndefined();
    expect(() => parseServiceConfig([], { DUCKDB_MEMORY_LIMIT: "4MB" })).toThrow(/at least 8MB/);
    expect(parseServiceConfig([], { DUCKDB_MEMORY_LIMIT: "8MB" }).duckdb.memoryLimit).toBe("8MB");
  });

  it("suggests more than there is: twice the limit, at least 2GB", () => {
    expect(memoryAdvice("512MB")).toContain("(now 512MB; e.g. DUCKDB_MEMORY_LIMIT=2GB)");
    expect(memoryAdvice("4GB")).toContain("(now 4GB; e.g. DUCKDB_MEMORY_LIMIT=8GB)");
    expect(memoryAdvice("3.5GB")).toContain("DUCKDB_MEMORY_LIMIT=7GB");
    expect(memoryAdvice("512MB")).not.toMatch(/restart the service/);
  });
});
