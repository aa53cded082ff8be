/**
 * Reads that run out of memory leave none of it taken: DuckDB keeps what a failed run of a
 * prepared statement had allocated until the statement is destroyed, and the engine keeps its
 * statements per connection (prepared.ts drops one whose run failed). Real DuckDB, a 64MB limit.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CompiledQuery } from "kysely";
import { afterEach, expect, it } from "vitest";
import type { SqlEngine } from "../engine";
import { openDuckDbEngine } from "./engine";

let engine: SqlEngine | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await engine?.close();
  engine = undefined;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), "bb-oom-")));
  return dirs[dirs.length - 1];
};

// A list of n numbers: held whole in memory (DuckDB cannot spill it), ~8 bytes each.
const list = (n: number) => CompiledQuery.raw(`select length(list(i)) as n from range(${n}) t(i)`, []);

it("after two reads ran out of memory at once, a read that fits runs (each of four in a row)", async () => {
  const dir = tempDir();
  engine = await openDuckDbEngine({ file: path.join(dir, "db.duckdb"), memoryLimit: "64MB", threads: 2, readers: 2 });
  const big = await Promise.allSettled([engine.read([list(4_000_000)]), engine.read([list(4_000_000)])]);
  expect(big.map((r) => r.status === "rejected" && engine!.dialect.classifyError(r.reason))).toEqual(["outOfMemory", "outOfMemory"]);
  for (let i = 0; i < 4; i++) expect((await engine.read([list(1_500_000)]))[0].rows).toEqual([[1_500_000]]);
});

it("a read that runs out of memory alone, after lookups loaded much of a key index, runs once the instance is opened afresh", async () => {
  const dir = tempDir();
  const file = path.join(dir, "db.duckdb");
  const setup = await openDuckDbEngine({ file, memoryLimit: "1GB", threads: 2 });
  await setup.write(async (tx) => {
    await tx.run(CompiledQuery.raw("create table t as select 'K' || lpad(i::varchar, 9, '0') as k, i as n from range(1500000) r(i)", []));
    await tx.run(CompiledQuery.raw("create unique index t_k on t(k)", []));
  });
  await setup.close();
  engine = await openDuckDbEngine({ file, memoryLimit: "96MB", threads: 2 });
  // Lookups at random: DuckDB keeps the index nodes they load (~60 MB here) and gives none back;
  // the read below needs ~40 MB (it ran when the instance was new, and fails after without this).
  let seed = 5;
  for (let i = 0; i < 3000; i++) {
    seed = (seed * 48271) % 2147483647;
    await engine.read([CompiledQuery.raw("select * from t where k = $1", [`K${String(seed % 1_500_000).padStart(9, "0")}`])]);
  }
  expect((await engine.read([list(3_000_000)]))[0].rows).toEqual([[3_000_000]]);
  // And the instance opened afresh serves everything as before.
  expect((await engine.read([CompiledQuery.raw("select n from t where k = $1", ["K000001234"])]))[0].rows).toEqual([[1234]]);
});

it("a read beside a write that fails leaves its reader usable (its transaction is rolled back, not left aborted)", async () => {
  const dir = tempDir();
  engine = await openDuckDbEngine({ file: path.join(dir, "db.duckdb"), memoryLimit: "64MB", threads: 2, readers: 1 });
  await engine.write(async (tx) => {
    await tx.run(CompiledQuery.raw("create table t (k varchar primary key, v varchar)", []));
    await tx.run(CompiledQuery.raw("insert into t select 'k' || i, 'v' from range(100) r(i)", []));
  });
  const pin = CompiledQuery.raw("select count(*) from t", []);
  const failed = await engine.write(async (tx) => {
    const beside = tx.readerBeside?.();
    expect(beside).toBeDefined();
    const changing = tx.run(CompiledQuery.raw("update t set v = 'w'", []));
    // Runs out of memory as it reads (a list DuckDB holds whole), after its transaction began.
    const started = await beside!(list(40_000_000), { atMostOne: false, pin });
    await changing;
    return started.result.then(() => "read", (e: Error) => engine!.dialect.classifyError(e));
  });
  expect(failed).toBe("outOfMemory");
  // The one reader serves the next reads (it answered "Current transaction is aborted" to every one).
  for (let i = 0; i < 3; i++) expect((await engine.read([CompiledQuery.raw("select count(*) as n from t where v = 'w'", [])]))[0].rows).toEqual([[100]]);
});
