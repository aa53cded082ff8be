import { DuckDBInstance } from "@duckdb/node-api";
const inst = await DuckDBInstance.create("/tmp/bb10m/baseboard.duckdb", { memory_limit: "512MB", threads: "2" });
const c = await inst.connect();
const id = (n: number) => `E${String(n).padStart(8, "0")}`;
async function time(name: string, sql: string, n = 300) {
  const p = await c.prepare(sql);
  const xs: number[] = [];
  for (let i = 0; i < n; i++) { p.bindVarchar(1, id(1 + Math.floor(Math.random() * 10_000_000))); const t = performance.now(); const r = await p.run(); r.getChunk(0)?.getRows(); xs.push(performance.now() - t); }
  xs.sort((a, b) => a - b); console.log(name.padEnd(30), "p50", xs[n >> 1].toFixed(3), "p90", xs[Math.floor(n * 0.9)].toFixed(3));
}
await time("all cols", "SELECT * FROM rt_1 WHERE employee_id = $1");
await time("all cols again", "SELECT * FROM rt_1 WHERE employee_id = $1");
await time("pk only", "SELECT employee_id FROM rt_1 WHERE employee_id = $1");
await time("rowid only", "SELECT rowid FROM rt_1 WHERE employee_id = $1");
await time("3 cols", "SELECT employee_id, full_name, age FROM rt_1 WHERE employee_id = $1");
await time("constant", "SELECT 1 WHERE $1 IS NOT NULL");
console.log((await c.runAndReadAll("SELECT * FROM duckdb_memory() ORDER BY memory_usage_bytes DESC LIMIT 5")).getRows().map((r) => r.join(" ")).join("\n"));
for (const col of ["full_name","job_title","department","business_unit","gender","ethnicity","age","hire_date","annual_salary","bonus","country","city","exit_date"]) await time(col, `SELECT employee_id, ${col} FROM rt_1 WHERE employee_id = $1`, 200);
await time("all but city/exit", "SELECT employee_id, full_name, job_title, department, business_unit, gender, ethnicity, age, hire_date, annual_salary, bonus, country FROM rt_1 WHERE employee_id = $1");
console.log((await c.runAndReadAll("SELECT column_name, compression, count(*) FROM pragma_storage_info('rt_1') WHERE segment_type <> 'VALIDITY' GROUP BY ALL ORDER BY 1")).getRows().map((r) => r.join(" ")).join("\n"));
