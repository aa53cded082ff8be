/**
 * The audit trail in the app: a Record's History tab with Restore (checked through the API, and
 * undone from its toast), a conflict that names who changed the Record, and the admins' Activity
 * page (filters, an entry's diff, the link to the Record); a viewer gets neither. Axe on both.
 */
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { signInAs, teamUrl, useTeamStack } from "./testing/team";

const PW = "a long enough passphrase";
useTeamStack((stack) => {
  stack.people(["add", "ada@example.com", "--role", "admin", "--name", "Ada Admin"], PW);
  stack.people(["add", "eve@example.com", "--role", "editor", "--name", "Eve Editor"], PW);
  stack.people(["add", "vic@example.com", "--role", "viewer", "--name", "Vic Viewer"], PW);
});

const headers = { origin: teamUrl, "x-baseboard-client": "1", "content-type": "application/json" };
async function update(req: APIRequestContext, id: string, values: Record<string, unknown>) {
  const res = await req.post(`${teamUrl}/api/v0/record/demo/employees/update`, {
    headers,
    data: { values: Object.entries(values).map(([key, value]) => ({ key, value })), filter: { and: [{ key: "employee_id", operator: "equal", value: id }] } },
  });
  expect(res.status(), await res.text()).toBe(200);
}
async function record(req: APIRequestContext, id: string) {
  const res = await req.post(`${teamUrl}/api/v0/record/demo/employees/query`, { headers, data: { filter: { and: [{ key: "employee_id", operator: "equal", value: id }] }, limit: 1 } });
  return ((await res.json()) as { items: Record<string, unknown>[] }).items[0];
}
async function serious(page: Page) {
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("History tab: each version with who and what; Restore this version, then Undo from its toast", async ({ page }) => {
  await signInAs(page, "eve@example.com", PW);
  const before = await record(page.request, "E00011");
  await update(page.request, "E00011", { job_title: "History Tester", annual_salary: 101_000 });
  await update(page.request, "E00011", { annual_salary: 102_000 });

  await page.goto(`${teamUrl}/records/demo/employees?record=E00011`);
  await page.getByRole("tab", { name: "History" }).click();
  const versions = page.getByRole("list", { name: "Versions of Record E00011, newest first" }).getByRole("listitem");
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toContainText("eve@example.com changed");
  await expect(versions.nth(0)).toContainText("annual_salary");
  await expect(versions.nth(1)).toContainText("History Tester");
  await expect(versions.nth(0).getByRole("button", { name: "Restore this version" })).toHaveCount(0);
  await expect(versions.nth(0)).toContainText("Current version");
  expect(await serious(page)).toEqual([]);
  await page.screenshot({ path: "test-results/audit-history-tab.png" });

  // The older version: salary back to what it was after the first change; the title stays.
  await versions.nth(1).getByRole("button", { name: "Restore this version" }).click();
  const toastBox = page.getByRole("status").filter({ hasText: "Restored Record E00011" });
  await expect(toastBox).toBeVisible();
  await expect.poll(async () => (await record(page.request, "E00011")).annual_salary).toBe(101_000);
  expect((await record(page.request, "E00011")).job_title).toBe("History Tester");
  // The restore is itself recorded: a third version, by eve.
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText("102,000");

  // Undo from the toast puts 102,000 back.
  await toastBox.getByRole("button", { name: "Undo" }).click();
  await expect.poll(async () => (await record(page.request, "E00011")).annual_salary).toBe(102_000);
  expect(before.employee_id).toBe("E00011");
});

test("a conflict names who changed the Record and when", async ({ page, browser }) => {
  await signInAs(page, "eve@example.com", PW);
  await page.goto(`${teamUrl}/records/demo/employees`);
  const cell = page.locator('[data-cell="3:3"]');
  await expect(cell).toBeVisible();
  const id = (await page.locator('[data-cell="3:1"]').innerText()).trim();

  // Eve starts editing; Ada changes the same Record's job title meanwhile (it arrives live).
  await cell.dblclick();
  await page.keyboard.press("Control+a");
  await page.keyboard.type("Eve's title");
  const other = await browser.newContext();
  const adaPage = await other.newPage();
  await signInAs(adaPage, "ada@example.com", PW);
  await update(adaPage.request, id, { job_title: "Changed by Ada" });
  await other.close();
  await expect(cell).toHaveClass(/live-flash/);
  await page.keyboard.press("Enter");
  await expect(page.getByText(`Conflict: job_title of ${id} was changed by ada@example.com`)).toBeVisible();
  expect((await record(page.request, id)).job_title).toBe("Changed by Ada");
});

test("Activity: admins filter the trail, open an entry's diff and go to the Record; a viewer gets neither", async ({ page, browser }) => {
  await signInAs(page, "ada@example.com", PW);
  await update(page.request, "E00012", { city: "Activity City" });
  await page.getByRole("button", { name: /Ada Admin/ }).click();
  await page.getByRole("link", { name: "Activity" }).click();
  await expect(page.getByRole("heading", { name: "Activity" })).toBeVisible();
  const table = page.getByRole("table", { name: "Activity, newest first" });
  await expect(table.getByRole("row").nth(1)).toContainText("ada@example.com");

  // Filter by person: only eve's entries (from the tests before).
  await page.getByLabel("Person (email)").fill("eve@example.com");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/actor=eve%40example.com/);
  const rows = table.locator("tbody tr");
  await expect(rows.first()).toContainText("eve@example.com");
  for (const text of await rows.allInnerTexts()) expect(text).toContain("eve@example.com");

  // Back to everyone on employees, kind update; open ada's entry.
  await page.getByRole("button", { name: "Clear" }).click();
  await page.getByLabel("Table or bucket").selectOption("table:demo/employees");
  await page.getByLabel("Kind").selectOption("update");
  await page.getByRole("button", { name: "Apply" }).click();
  const first = rows.first();
  await expect(first).toContainText("ada@example.com");
  await first.getByRole("button").click();
  const diff = page.locator(".activity-diff");
  await expect(diff).toContainText("Activity City");
  expect(await serious(page)).toEqual([]);
  await page.screenshot({ path: "test-results/audit-activity.png", fullPage: true });
  await diff.getByRole("link", { name: "open" }).click();
  await expect(page).toHaveURL(/records\/demo\/employees\?.*record=E00012/);
  await expect(page.getByRole("heading", { name: /Record E00012/ })).toBeVisible();

  // A viewer: no Activity in the menu, a 403 from the API, an explanation on the page.
  const ctx = await browser.newContext();
  const vic = await ctx.newPage();
  await signInAs(vic, "vic@example.com", PW);
  await vic.getByRole("button", { name: /Vic Viewer/ }).click();
  await expect(vic.getByRole("group", { name: "Account" })).toBeVisible();
  await expect(vic.getByRole("link", { name: "Activity" })).toHaveCount(0);
  expect((await vic.request.get(`${teamUrl}/api/audit`, { headers })).status()).toBe(403);
  await vic.goto(`${teamUrl}/activity`);
  await expect(vic.getByRole("alert")).toContainText("needs the admin role");
  // A Record's history stays open to a reader of the table.
  expect((await vic.request.get(`${teamUrl}/api/audit?table=demo/employees&record=E00012`, { headers })).status()).toBe(200);
  await ctx.close();
});
