/**
 * Part of `npm run bench -- ui`: the grid's tools (issue 14), on the same server and browser.
 * 1. Export of 100,000 Records to CSV (a table created by the import endpoint): time from the
 *    click to the file, and the tab's responsiveness meanwhile (longest main-thread task, from
 *    the Long Tasks API), beside the time of fetching the same pages with no UI at all.
 * 2. Paste of 500 cells (100 rows × 5 text columns): time to the preview, time to apply (one
 *    conflict-checked update per Record), the apply beside 100 bare updates sent in a loop.
 * Not a test: it prints measures and ratios.
 */
import type { Browser, Page } from "@playwright/test";

const ms = (n: number) => `${n.toFixed(0)} ms`;
const N = 100_000;

async function importTable(page: Page, table: string): Promise<void> {
  await page.evaluate(
    async ({ table, n }) => {
      const lines = ["id,name,city,score,joined"];
      for (let i = 1; i <= n; i++) lines.push(`K${String(i).padStart(6, "0")},Name ${i},City ${i % 97},${(i * 7) % 1000},2024-0${(i % 9) + 1}-1${i % 10}`);
      const res = await fetch(`/api/v0/record/demo/${table}/import?primaryKey=id`, {
        method: "POST",
        headers: { "content-type": "text/csv", "x-baseboard-client": "1" },
        body: lines.join("\n"),
      });
      if (!res.ok) throw new Error(`import failed: ${res.status} ${await res.text()}`);
    },
    { table, n: N },
  );
}

/** The export's own work without the app: the same pages (5,000 Records each) fetched one after another. */
async function barePaging(page: Page, table: string): Promise<number> {
  return page.evaluate(
    async ({ table, n }) => {
      const t0 = performance.now();
      let after = 0;
      for (let skip = 0; skip < n; skip += 5000) {
        const res = await fetch(`/api/v0/record/demo/${table}/query`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-baseboard-client": "1" },
          body: JSON.stringify({ sort: [{ key: "id", direction: "ascending" }], limit: 5000, skip }),
        });
        after += ((await res.json()) as { items: unknown[] }).items.length;
      }
      if (after !== n) throw new Error(`bare paging read ${after} Records`);
      return performance.now() - t0;
    },
    { table, n: N },
  );
}

async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __long: number[] };
    w.__long = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.__long.push(e.duration);
    }).observe({ type: "longtask" });
  });
}
const longTasks = (page: Page) => page.evaluate(() => (window as unknown as { __long: number[] }).__long);

export async function benchExport(browser: Browser, base: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  // No file picker in a headless browser: the Blob download path (the whole file in memory).
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await page.goto(`${base}/records/demo/employees`);
  await page.getByRole("grid").waitFor();
  const t0 = Date.now();
  await importTable(page, "bench_export");
  console.log(`export: ${N.toLocaleString("en-US")} Records imported by CSV over HTTP in ${ms(Date.now() - t0)}`);
  const bare = await barePaging(page, "bench_export");
  await page.goto(`${base}/records/demo/bench_export?sort=id`);
  await page.getByRole("grid").waitFor();
  await watchLongTasks(page);
  await page.getByRole("button", { name: "Export…" }).click();
  const dialog = page.getByRole("dialog", { name: "Export Records" });
  await dialog.getByLabel("CSV").check();
  const started = Date.now();
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 300_000 }), dialog.getByRole("button", { name: "Export" }).click()]);
  const took = Date.now() - started;
  const path = await download.path();
  const { statSync } = await import("node:fs");
  const size = statSync(path).size;
  const long = await longTasks(page);
  const worst = long.length ? Math.max(...long) : 0;
  console.log(
    `export of ${N.toLocaleString("en-US")} Records to CSV (${(size / 1e6).toFixed(1)} MB): ${ms(took)} beside ${ms(bare)} for the same pages fetched bare → ratio ${(took / bare).toFixed(2)}; longest main-thread task ${ms(worst)} (${long.length} tasks over 50 ms; the tab stays responsive when none is long)`,
  );
  await page.close();
}

export async function benchPaste(browser: Browser, base: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${base}/records/demo/employees?size=100&sort=employee_id&cols=employee_id,department,business_unit,country,city,job_title`);
  await page.getByRole("grid").waitFor();
  const first = page.locator('[role=grid] [role=row][aria-rowindex="2"] [data-col="department"]');
  await first.click();
  // Paste a block and time it until the preview's summary is in the document.
  const previewOf = (text: string) =>
    page.evaluate(async (t) => {
      const dt = new DataTransfer();
      dt.setData("text/plain", t);
      const t0 = performance.now();
      document.activeElement?.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
      while (!document.querySelector("[data-testid=paste-summary]")) await new Promise((r) => requestAnimationFrame(r));
      return performance.now() - t0;
    }, text);
  const block = (tag: string) => Array.from({ length: 100 }, (_, r) => Array.from({ length: 5 }, (_, c) => `${tag}${r}-${c}`).join("\t")).join("\n");
  // Straight after the first click (the tools' chunk may still be on its way), then once more.
  const preview = await previewOf(block("P"));
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await first.click();
  const again = await previewOf(block("P"));
  await dialog.getByTestId("paste-summary").filter({ hasText: "500 values to change in 100 Records" }).waitFor();
  const t0 = Date.now();
  await dialog.getByRole("button", { name: "Update 100 Records" }).click();
  await dialog.getByTestId("paste-outcome").waitFor({ timeout: 120_000 });
  const apply = Date.now() - t0;
  // tsx keeps function names with a __name helper that the page does not have.
  await page.evaluate("globalThis.__name = (f) => f");
  // Baseline: the same 100 updates without the app, one after another: each sets the 5 Fields
  // and is filtered on the key AND the 5 old values, as the paste's are (old values read first,
  // outside the timing).
  const bare = await page.evaluate(async () => {
    const keys = ["department", "business_unit", "country", "city", "job_title"];
    const call = (op: string, body: unknown) =>
      fetch(`/api/v0/record/demo/employees/${op}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-baseboard-client": "1" },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ items: Record<string, string | null>[] }>);
    const { items } = await call("query", { sort: [{ key: "employee_id", direction: "ascending" }], select: ["employee_id", ...keys], limit: 100 });
    const t = performance.now();
    for (const [i, row] of items.entries()) {
      await call("update", {
        fixedValue: [],
        values: keys.map((key, c) => ({ key, value: `B${i}-${c}` })),
        filter: { and: [{ key: "employee_id", operator: "equal", value: row.employee_id }, ...keys.map((key) => ({ key, operator: "equal", value: row[key] }))] },
      });
    }
    return performance.now() - t;
  });
  console.log(`paste of 500 cells (100 rows × 5 columns): preview in ${ms(preview)} right after the first click, ${ms(again)} the second time; apply in ${ms(apply)} beside ${ms(bare)} for the same 100 updates sent bare, one by one → ratio ${(apply / bare).toFixed(2)}`);
  await page.close();
}
