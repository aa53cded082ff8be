import { DuckDBInstance } from "@duckdb/node-api";
const inst = await DuckDBInstance.create("/tmp/bb10m/baseboard.duckdb", { memory_limit: "512MB", threads: "2" });
const c = await inst.connect();
for (const sql of [
  "SELECT t0.hire_date FROM rt_1 AS t0 TABLESAMPLE 1% (system) WHERE t0.annual_salary > $1 ORDER BY t0.hire_date DESC NULLS LAST LIMIT $2",
  "SELECT t0.hire_date FROM rt_1 t0 TABLESAMPLE 1% (system) WHERE t0.annual_salary > $1 ORDER BY t0.hire_date DESC NULLS LAST LIMIT $2",
]) {
  try { const p = await c.prepare(sql); p.bindDouble(1, 120000); p.bindInteger(2, 4); const r = await p.run(); console.log("OK", r.getChunk(0).getRows()); } catch (e) { console.log("ERR", (e as Error).message.slice(0, 150)); }
}
// how many rows does a 1% system sample read, and how random
for (let i = 0; i < 3; i++) { const t = performance.now(); const r = await c.runAndReadAll("SELECT count(*), min(employee_id), max(employee_id) FROM rt_1 TABLESAMPLE 1% (system)"); console.log(r.getRows(), (performance.now() - t).toFixed(1)); }
for (let i = 0; i < 3; i++) { const t = performance.now(); const r = await c.runAndReadAll("SELECT count(*) FROM rt_1 TABLESAMPLE 0.2% (system)"); console.log(r.getRows(), (performance.now() - t).toFixed(1)); }
