/**
 * Hosted mode against SERVICE_PROFILE=interface through a real second launcher (hosted.helpers):
 * Fields without rows (issue 13 item 2) and outages (item 4). The upstream answers only the
 * interface: no fields endpoint, no meta, only `equal`.
 */
import { expect, type Page, test } from "@playwright/test";
import { HostedStack, hostedUrl } from "./hosted.helpers";

const stack = new HostedStack();
test.describe.configure({ mode: "serial" });
test.use({ baseURL: hostedUrl });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  await stack.start();
});
test.afterAll(async () => {
  await stack.stop();
});

async function goView(page: Page, table: string, search: Record<string, unknown> = {}) {
  const qs = Object.entries(search)
    .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === "string" ? v : JSON.stringify(v))}`)
    .join("&");
  await page.goto(`/records/demo/${table}${qs ? `?${qs}` : ""}`);
}
const grid = (page: Page) => page.getByRole("grid");
const header = (page: Page, key: string) => page.locator("[role=columnheader]", { hasText: key }).first().locator(".th-type");
const eq = (key: string, value: unknown) => ({ and: [{ key, operator: "equal", value }] });

test("the upstream is the interface profile: /api/config comes from the config file, only equal", async ({ page }) => {
  const res = await page.request.get("/api/config");
  const config = await res.json();
  expect(config.capabilities).toEqual({ operators: ["equal"], fields: false, meta: false, list: false, delete: false, expiresIn: false, import: false });
  expect(config.upstream).toMatchObject({ kind: "hosted", label: "Interface profile (e2e)" });
  expect((await stack.call("/v0/record/demo/employees/fields")).status).toBe(404);
  await page.goto("/");
  await expect(page.getByTestId("upstream")).toHaveAttribute("data-state", "up");
});

test("a filter that matches nothing keeps the builder open and editable, also after a reload", async ({ page }) => {
  await goView(page, "employees");
  await expect(grid(page)).toBeVisible();
  await goView(page, "employees", { filter: eq("country", "Atlantis") });
  await expect(page.getByText("No Records match this filter.")).toBeVisible();
  const builder = page.getByRole("region", { name: "Filter builder" });
  await expect(builder).toBeVisible();
  // Every Field learnt on the first page is offered, not only the one the filter names.
  const field = builder.getByLabel("Condition 1 field");
  await expect(field.locator("option", { hasText: "exit_date" })).toHaveCount(1);
  await page.reload();
  await expect(builder).toBeVisible();
  await expect(field.locator("option", { hasText: "annual_salary" })).toHaveCount(1);
  // Editable: country = Brazil is found.
  await builder.getByLabel("Condition 1 value", { exact: true }).fill("Brazil");
  await builder.getByRole("button", { name: "Apply filter" }).click();
  await expect(grid(page)).toBeVisible();
  await expect(page.locator('[role=grid] [data-col="country"]').first()).toHaveText("Brazil");
});

test("a hidden column is counted, stays listed and can be shown again on its own", async ({ page }) => {
  await goView(page, "employees");
  await expect(grid(page)).toBeVisible();
  const all = ["employee_id", "full_name", "job_title", "department", "business_unit", "gender", "ethnicity", "age", "hire_date", "annual_salary", "bonus", "country", "city"];
  await goView(page, "employees", { cols: all.join(",") });
  await expect(grid(page)).toBeVisible();
  const columns = page.getByRole("button", { name: /Columns/ });
  await expect(columns).toContainText("1 hidden");
  await columns.click();
  const show = page.getByLabel("Show exit_date");
  await expect(show).not.toBeChecked();
  await show.check();
  await expect(page.locator('[role=columnheader][data-col="exit_date"], [role=columnheader]', { hasText: "exit_date" }).first()).toBeVisible();
  await expect(columns).not.toContainText("hidden");
});

test("a Field's type never changes between pages: an all-null page keeps exit_date a date", async ({ page }) => {
  await goView(page, "employees");
  await expect(grid(page)).toBeVisible();
  await expect(header(page, "exit_date")).toHaveText("date");
  // Only Records without an exit date: every exit_date on this page is null.
  await goView(page, "employees", { filter: eq("exit_date", null) });
  await expect(grid(page)).toBeVisible();
  await expect(page.locator('[role=grid] [data-col="exit_date"]').first()).toHaveText("NULL");
  await expect(header(page, "exit_date")).toHaveText("date");
});

test("the config file's Field types give the catalog its thumbnails", async ({ page }) => {
  await goView(page, "catalog");
  await expect(grid(page)).toBeVisible();
  await expect(header(page, "image")).toHaveText("image");
  await expect(page.locator('[role=grid] [data-col="image"] img').first()).toBeVisible();
});

test("outage: red badge, no page shown that is not there, a failed edit keeps its value, all comes back by itself", async ({ page }) => {
  await goView(page, "employees", { filter: eq("department", "Engineering") });
  await expect(grid(page)).toBeVisible();
  const badge = page.getByTestId("upstream");
  await expect(badge).toHaveAttribute("data-state", "up");
  const firstPk = await page.locator('[role=grid] [data-col="employee_id"]').first().textContent();

  await stack.stopService();
  await expect(badge).toHaveAttribute("data-state", "down", { timeout: 15_000 });

  // An edit while down: not saved, the typed value stays in the cell with Retry.
  const city = page.locator('[role=grid] [role=row][aria-rowindex="2"] [data-col="city"]');
  await city.dblclick();
  await page.getByLabel("Edit city").fill("Outage City");
  await page.keyboard.press("Enter");
  await expect(city).toHaveText(/Outage City/, { timeout: 15_000 });
  const retry = city.getByRole("button", { name: "Retry saving city" });
  await expect(retry).toBeVisible();

  // Page 2 cannot load: page 1's rows are never shown under "Page 2".
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page.getByText(/Page 2 of/)).toBeVisible();
  await expect(page.locator('[role=grid] [data-col="employee_id"]', { hasText: firstPk ?? "" })).toHaveCount(0);

  await stack.startService();
  await expect(badge).toHaveAttribute("data-state", "up", { timeout: 20_000 });
  // Page 2 arrives without a click on Retry or ⟳.
  await expect(grid(page)).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[role=grid] [data-col="employee_id"]').first()).not.toHaveText(firstPk ?? "");

  await page.getByRole("button", { name: "Previous page" }).click();
  await expect(retry).toBeVisible();
  await retry.click();
  await expect(retry).toHaveCount(0);
  await expect
    .poll(async () => {
      const r = await stack.call("/v0/record/demo/employees/query", { filter: eq("employee_id", firstPk), limit: 1 });
      return (await r.json()).items[0]?.city;
    })
    .toBe("Outage City");
});
