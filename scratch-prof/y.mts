import { DuckDBInstance } from "@duckdb/node-api";
const inst = await DuckDBInstance.create("/tmp/bb10m/baseboard.duckdb", { memory_limit: "512MB", threads: "2" });
const c = await inst.connect();
const where = "((department = 'Engineering' AND age >= 37) OR (country = 'Brazil' AND job_title = 'Account Executive')) AND annual_salary > 120000";
await c.run(`SELECT * FROM rt_1 WHERE ${where} ORDER BY hire_date DESC NULLS LAST, employee_id ASC LIMIT 50`);
const r = await c.runAndReadAll(`EXPLAIN ANALYZE SELECT * FROM rt_1 WHERE ${where} ORDER BY hire_date DESC NULLS LAST, employee_id ASC LIMIT 50`);
console.log(String(r.getRows()[0][1]));
console.log((await c.runAndReadAll("SELECT version()")).getRows());
