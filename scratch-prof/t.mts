import { DuckDBInstance } from "@duckdb/node-api";
const inst = await DuckDBInstance.create("/tmp/bb10m/baseboard.duckdb", { memory_limit: "512MB", threads: "2" });
const c = await inst.connect();
const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRows();
async function time(name: string, sql: string, n = 7) {
  const xs: number[] = []; let out: unknown;
  for (let i = 0; i < n; i++) { const t = performance.now(); out = await rows(sql); xs.push(performance.now() - t); }
  xs.sort((a, b) => a - b); console.log(name.padEnd(44), xs[n >> 1].toFixed(1), "ms", JSON.stringify(out, (_, v) => typeof v === "bigint" ? Number(v) : v).slice(0, 100));
}
const where = "((department = 'Engineering' AND age >= 37) OR (country = 'Brazil' AND job_title = 'Account Executive')) AND annual_salary > 120000";
await time("sample matches (system 1%)", `SELECT count(*), max(hire_date), min(hire_date) FROM rt_1 TABLESAMPLE 1% (system) WHERE ${where}`);
await time("sample top keys (system 1%)", `SELECT hire_date FROM rt_1 TABLESAMPLE 1% (system) WHERE ${where} ORDER BY hire_date DESC LIMIT 10`);
const [[T]] = await rows(`SELECT quantile_disc(hire_date, 0.99) FROM rt_1 TABLESAMPLE 1% (system)`) as string[][];
console.log("T", T);
await time("page plain", `SELECT * FROM rt_1 WHERE ${where} ORDER BY hire_date DESC NULLS LAST, employee_id ASC LIMIT 50`);
await time("page with threshold", `SELECT * FROM rt_1 WHERE ${where} AND hire_date >= '${T}' ORDER BY hire_date DESC NULLS LAST, employee_id ASC LIMIT 50`);
await time("count with threshold", `SELECT count(*) FROM rt_1 WHERE ${where} AND hire_date >= '${T}'`);
await time("sort only plain", `SELECT * FROM rt_1 ORDER BY annual_salary DESC NULLS LAST, employee_id ASC LIMIT 50`);
const [[S]] = await rows(`SELECT quantile_disc(annual_salary, 0.999) FROM rt_1 TABLESAMPLE 1% (system)`) as number[][];
await time("sort only threshold", `SELECT * FROM rt_1 WHERE annual_salary >= ${S} ORDER BY annual_salary DESC NULLS LAST, employee_id ASC LIMIT 50`);
await time("sort only hire plain", `SELECT * FROM rt_1 ORDER BY hire_date DESC NULLS LAST, employee_id ASC LIMIT 50`);
const [[H]] = await rows(`SELECT quantile_disc(hire_date, 0.999) FROM rt_1 TABLESAMPLE 1% (system)`) as string[][];
await time("sort only hire threshold", `SELECT * FROM rt_1 WHERE hire_date >= '${H}' ORDER BY hire_date DESC NULLS LAST, employee_id ASC LIMIT 50`);
await time("sort name plain", `SELECT * FROM rt_1 ORDER BY full_name ASC NULLS LAST, employee_id ASC LIMIT 50`);
const [[N]] = await rows(`SELECT quantile_disc(full_name, 0.001) FROM rt_1 TABLESAMPLE 1% (system)`) as string[][];
await time("sort name threshold", `SELECT * FROM rt_1 WHERE full_name <= '${N.replaceAll("'", "''")}' ORDER BY full_name ASC NULLS LAST, employee_id ASC LIMIT 50`);
await time("quantile sample cost", `SELECT quantile_disc(hire_date, 0.999) FROM rt_1 TABLESAMPLE 1% (system)`);
