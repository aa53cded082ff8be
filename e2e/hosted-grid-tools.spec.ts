/**
 * The grid's tools (issue 14) in hosted mode: a real launcher in front of SERVICE_PROFILE=interface
 * (no fields, meta or import; only `equal`). What can work works (panel, paste, export, filter by
 * value); what needs an extension is not offered (exclude this value, import). Checked through
 * the upstream itself.
 */
import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { hostedUrl, useHostedStack } from "./testing/hosted";
import { cell } from "./testing/records";

const stack = useHostedStack();

const eq = (key: string, value: unknown) => ({ key, operator: "equal", value });
const pkOr = (...pks: string[]) => ({ or: pks.map((pk) => eq("employee_id", pk)) });

async function upstreamRows(filter: unknown): Promise<Record<string, unknown>[]> {
  const res = await stack.call("/v0/record/demo/employees/query", { filter, sort: [{ key: "employee_id", direction: "ascending" }], limit: 100 });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Record<string, unknown>[] }).items;
}

async function goView(page: Page, search: Record<string, unknown>) {
  const qs = Object.entries(search)
    .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === "string" ? v : JSON.stringify(v))}`)
    .join("&");
  await page.goto(`/records/demo/employees?${qs}`);
  await expect(cell(page, 2, "city")).toBeVisible();
}

test("hosted: the record panel saves with its conflict check; filter by value offered, exclude and import not", async ({ page }) => {
  const filter = { and: [eq("employee_id", "E00801")] };
  await goView(page, { filter });
  const [before] = await upstreamRows(filter);
  await page.getByRole("button", { name: "Open Record E00801" }).click();
  const panel = page.getByRole("complementary").filter({ hasText: "Record E00801" });
  await panel.locator("#rp-city").fill("HostedTown");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect.poll(async () => (await upstreamRows(filter))[0]).toEqual({ ...before, city: "HostedTown" });
  await page.keyboard.press("Escape");

  await cell(page, 2, "department").click({ button: "right" });
  await expect(page.getByRole("menuitem", { name: /^Filter by this value/ })).toBeEnabled();
  await expect(page.getByRole("menuitem", { name: /^Exclude this value/ })).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Import…" })).toHaveCount(0);
});

test("hosted: a paste updates with equal conditions only; the view exports as the upstream reads it", async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  const filter = pkOr("E00811", "E00812");
  await goView(page, { filter, sort: "employee_id" });
  const before = await upstreamRows(filter);
  await cell(page, 2, "city").click();
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.setData("text/plain", "PasteA\nPasteB");
    document.activeElement?.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  });
  const dialog = page.getByRole("dialog", { name: "Paste: review the changes" });
  await dialog.getByRole("button", { name: "Update 2 Records" }).click();
  await expect(page.getByTestId("paste-outcome")).toContainText("2 Records updated");
  const after = await upstreamRows(filter);
  expect(after).toEqual([
    { ...before[0], city: "PasteA" },
    { ...before[1], city: "PasteB" },
  ]);
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).last().click();

  await page.getByRole("button", { name: "Export…" }).click();
  const exp = page.getByRole("dialog", { name: "Export Records" });
  await exp.getByLabel("JSON").check();
  const [file] = await Promise.all([page.waitForEvent("download"), exp.getByRole("button", { name: "Export" }).click()]);
  expect(JSON.parse(await readFile(await file.path(), "utf8"))).toEqual(after);
});

test("hosted, fresh browser, a view of two columns: the Columns menu still lists every Field", async ({ browser }) => {
  // A new context: nothing learnt before (no localStorage), and the upstream has no fields endpoint.
  const ctx = await browser.newContext({ baseURL: hostedUrl });
  const page = await ctx.newPage();
  await page.goto("/records/demo/employees?cols=employee_id,full_name");
  await expect(page.getByRole("columnheader")).toHaveText([/^$/, /employee_id/, /full_name/]);
  await page.getByRole("button", { name: "Columns" }).click();
  const panel = page.getByRole("dialog", { name: "Columns" });
  for (const f of ["job_title", "department", "age", "hire_date", "annual_salary", "city", "exit_date"]) await expect(panel.getByLabel(`Show ${f}`)).not.toBeChecked();
  await panel.getByLabel("Show city").check();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("columnheader")).toHaveText([/^$/, /employee_id/, /full_name/, /city/]);
  await ctx.close();
});
