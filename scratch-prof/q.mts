import { parseServiceConfig } from "../src/server/service/config";
import { openEngine } from "../src/server/service/engines/open";
import { SqlRecordStore } from "../src/server/service/records/store";
const engine = await openEngine({ ...parseServiceConfig([], {}), dataDir: "/tmp/bb10m" });
const store = await SqlRecordStore.open(engine);
const t = (await store.table("demo", "employees"))!;
async function time(name: string, body: (i: number) => any, n = 9) {
  const xs: number[] = []; let out: any;
  for (let i = 0; i < n; i++) { const s = performance.now(); out = await store.query(t, body(i)); xs.push(performance.now() - s); }
  xs.sort((a, b) => a - b); console.log(name.padEnd(30), "p50", xs[n >> 1].toFixed(1), "count", out.value?.count, out.value?.items[0]?.employee_id, JSON.stringify(store.bounds));
}
let serial = 0;
const nested = (i: number) => ({ filter: { and: [{ or: [{ and: [{ key: "department", operator: "equal", value: "Engineering" }, { key: "age", operator: "greaterThanOrEqual", value: 25 + i }] }, { and: [{ key: "country", operator: "equal", value: "Brazil" }, { key: "job_title", operator: "equal", value: "Account Executive" }] }] }, { key: "annual_salary", operator: "greaterThan", value: 60000 + i * 15000 }] }, sort: [{ key: "hire_date", direction: "descending" }], limit: 50 });
await time("nested", nested);
for (const key of ["hire_date", "annual_salary", "full_name", "country"]) for (const direction of ["ascending", "descending"]) await time(`sort ${key} ${direction}`, () => ({ sort: [{ key, direction }], limit: 50 }), 5);
await time("contains", () => ({ filter: { and: [{ key: "full_name", operator: "contains", value: "son" }, { key: "employee_id", operator: "notEqual", value: `none-${++serial}` }] }, limit: 50 }));
await engine.close();
