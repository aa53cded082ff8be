import { DuckDBInstance } from "@duckdb/node-api";
const inst = await DuckDBInstance.create(":memory:");
const c = await inst.connect();
await c.run("CREATE TABLE t AS SELECT i FROM range(100000) r(i)");
for (const sql of ["SELECT count(*) FROM t TABLESAMPLE $1% (system)", "SELECT count(*) FROM t TABLESAMPLE system($1)", "SELECT count(*) FROM t TABLESAMPLE ($1 PERCENT)", "SELECT count(*) FROM t USING SAMPLE system($1 PERCENT)", "SELECT count(*) FROM t USING SAMPLE $1 PERCENT (system)"]) {
  try { const p = await c.prepare(sql); p.bindDouble(1, 10); const r = await p.run(); console.log("OK", sql, r.getChunk(0).getRows()); } catch (e) { console.log("ERR", sql, (e as Error).message.slice(0, 100)); }
}
