/**
 * DuckDB plans a statement without parameters once, when it is prepared, from the table's
 * statistics of that moment: kept and run again, `count(*)` of the whole table, `max(n)` and a
 * filter the min/max ruled out kept answering as then. The checker's case: a table's total
 * stayed 1,000,000 after inserts, and its last page skipped a Record. Such statements are not
 * kept (prepared.ts); these run each shape before and after writes on a file database whose
 * rows were checkpointed before it was opened (as after `npm run import`, or a restart).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runPrepared } from "./prepared";

let dir: string;
let instance: DuckDBInstance;
let reader: DuckDBConnection;
let writer: DuckDBConnection;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-prepared-stats-"));
  const file = path.join(dir, "t.duckdb");
  const seed = await DuckDBInstance.create(file);
  const c = await seed.connect();
  await c.run("create table t (k varchar not null, n double)");
  await c.run("insert into t select 'k' || i, i from range(1000) r(i)");
  await c.run("checkpoint");
  c.closeSync();
  seed.closeSync();
  instance = await DuckDBInstance.create(file);
  reader = await instance.connect();
  writer = await instance.connect();
});
afterAll(() => {
  reader?.closeSync();
  writer?.closeSync();
  instance?.closeSync();
  fs.rmSync(dir, { recursive: true, force: true });
});

const one = async (sql: string, values: string[] = []) => Number((await runPrepared(reader, sql, values)).rows[0]?.[0] ?? -1);

it("whole-table counts, maxima and filters follow the writes after them", async () => {
  const shapes = {
    total: "select count(*) from t",
    max: "select max(n) from t",
    beyond: "select count(*) from t where n > 5000",
    beyondWithParameter: "select count(*) from t where n > 5000 and k <> $1",
  };
  const read = async () => ({
    total: await one(shapes.total),
    max: await one(shapes.max),
    beyond: await one(shapes.beyond),
    beyondWithParameter: await one(shapes.beyondWithParameter, ["none"]),
  });
  expect(await read()).toEqual({ total: 1000, max: 999, beyond: 0, beyondWithParameter: 0 });
  await runPrepared(writer, "insert into t values ($1, 6000), ($2, 7000)", ["new1", "new2"]);
  expect(await read()).toEqual({ total: 1002, max: 7000, beyond: 2, beyondWithParameter: 2 });
  await runPrepared(writer, "delete from t where k = $1", ["new2"]);
  expect(await read()).toEqual({ total: 1001, max: 6000, beyond: 1, beyondWithParameter: 1 });
});
