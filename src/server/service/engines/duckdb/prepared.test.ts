import { DOUBLE, type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PREPARED_PER_CONNECTION, preparedCount, runPrepared } from "./prepared";

describe("prepared statements per connection", () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;
  beforeEach(async () => {
    instance = await DuckDBInstance.create(":memory:", { threads: "1" });
    conn = await instance.connect();
    await runPrepared(conn, "create table t (k varchar primary key, n double)");
    await runPrepared(conn, "insert into t values ($1, $2), ($3, $4)", ["a", 1, "b", 2], [undefined, DOUBLE, undefined, DOUBLE]);
  });
  afterEach(() => {
    conn.closeSync();
    instance.closeSync();
  });

  it("prepares a SQL text once and binds fresh values on every run", async () => {
    const sql = "select n from t where k = $1";
    expect((await runPrepared(conn, sql, ["a"])).rows).toEqual([[1]]);
    const before = preparedCount(conn);
    expect((await runPrepared(conn, sql, ["b"])).rows).toEqual([[2]]);
    expect((await runPrepared(conn, sql, ["zz"])).rows).toEqual([]);
    expect(preparedCount(conn)).toBe(before);
  });

  it("reports rows changed, and a failed run leaves the statement usable", async () => {
    const sql = "update t set k = $1 where k = $2";
    await expect(runPrepared(conn, sql, ["b", "a"])).rejects.toThrow(/Duplicate key|PRIMARY KEY/i);
    expect((await runPrepared(conn, sql, ["c", "a"])).changes).toBe(1);
    expect((await runPrepared(conn, "select k from t order by k")).rows).toEqual([["b"], ["c"]]);
  });

  it("does not keep DDL, and a kept statement follows the table after it is re-created", async () => {
    const sql = "select n from t where k = $1";
    await runPrepared(conn, sql, ["a"]);
    const kept = preparedCount(conn);
    await runPrepared(conn, "drop table t");
    await runPrepared(conn, "create table t (n varchar, k varchar)");
    await runPrepared(conn, "insert into t values ($1, 'a')", ["text now"]);
    expect(preparedCount(conn)).toBe(kept + 1); // the insert only
    expect((await runPrepared(conn, sql, ["a"])).rows).toEqual([["text now"]]);
  });

  it("keeps at most PREPARED_PER_CONNECTION statements, dropping the least recently used", async () => {
    const hot = "select count(*) from t where k <> $1";
    for (let i = 0; i < PREPARED_PER_CONNECTION + 20; i++) {
      await runPrepared(conn, hot, ["none"]);
      expect((await runPrepared(conn, `select n + ${i} from t where k = $1`, ["a"])).rows).toEqual([[1 + i]]);
    }
    expect(preparedCount(conn)).toBe(PREPARED_PER_CONNECTION);
    const size = preparedCount(conn);
    await runPrepared(conn, hot, ["none"]); // still kept: used all along
    expect(preparedCount(conn)).toBe(size);
  });

  it("runs transaction control prepared: a rolled back write leaves nothing", async () => {
    await runPrepared(conn, "begin transaction");
    await runPrepared(conn, "update t set n = $1", [9], [DOUBLE]);
    await runPrepared(conn, "rollback");
    await runPrepared(conn, "begin transaction");
    await runPrepared(conn, "update t set n = $1 where k = $2", [5, "b"], [DOUBLE]);
    await runPrepared(conn, "commit");
    expect((await runPrepared(conn, "select k, n from t order by k")).rows).toEqual([["a", 1], ["b", 5]]);
  });
});
