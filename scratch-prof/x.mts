import { DuckDBInstance } from "@duckdb/node-api";
const inst = await DuckDBInstance.create("/tmp/bb10m/baseboard.duckdb", { memory_limit: "512MB", threads: "2" });
const c = await inst.connect();
const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRows();
console.log((await rows("SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'rt_1'")).map((r) => r.join(":")).join(", "));
async function time(name: string, sql: string, n = 7) {
  const xs: number[] = [];
  let out: unknown;
  for (let i = 0; i < n; i++) { const t = performance.now(); out = await rows(sql.replaceAll("$AGE", String(25 + i * 3)).replaceAll("$SAL", String(60000 + i * 20000))); xs.push(performance.now() - t); }
  xs.sort((a, b) => a - b); console.log(name.padEnd(40), xs[Math.floor(n / 2)].toFixed(1), "ms", JSON.stringify(out, (_, v) => typeof v === "bigint" ? Number(v) : v).slice(0, 80));
}
const where = "((department = 'Engineering' AND age >= $AGE) OR (country = 'Brazil' AND job_title = 'Account Executive')) AND annual_salary > $SAL";
await time("count", `SELECT count(*) FROM rt_1 WHERE ${where}`);
await time("page", `SELECT * FROM rt_1 WHERE ${where} ORDER BY hire_date DESC NULLS LAST, employee_id ASC LIMIT 50`);
await time("page keys only", `SELECT employee_id FROM rt_1 WHERE ${where} ORDER BY hire_date DESC NULLS LAST, employee_id ASC LIMIT 50`);
await time("count sal only", `SELECT count(*) FROM rt_1 WHERE annual_salary > $SAL`);
await time("count dept", `SELECT count(*) FROM rt_1 WHERE department = 'Engineering'`);
await time("count(*) all", `SELECT count(*) FROM rt_1`);
