/**
 * Keyboard and layout as a new user met them at 1440×900 (issue 23 item 7): a skip link and a
 * one-stop header put the grid a few Tabs from the top; paging with ] keeps focus in the grid;
 * a locked sidebar entry is reachable and explains itself; with a filter applied the toolbar
 * stays on one line; the record panel leaves the toolbar usable and the open Record's row is
 * highlighted.
 */
import { expect, test } from "@playwright/test";
import { openView } from "./testing/records";

test.use({ viewport: { width: 1440, height: 900 } });

const activeRole = (page: import("@playwright/test").Page) => page.evaluate(() => document.activeElement?.getAttribute("role") ?? document.activeElement?.tagName ?? "");

test("the grid is a few Tabs from the top, and the skip link goes straight there", async ({ page }) => {
  await openView(page, "employees");
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to grid" })).toBeFocused();
  let presses = 1;
  while ((await activeRole(page)) !== "gridcell" && presses < 60) {
    await page.keyboard.press("Tab");
    presses++;
  }
  expect(await activeRole(page)).toBe("gridcell");
  // Header: one stop for all columns (was two per column: 45 presses in all).
  expect(presses).toBeLessThan(26);
  await page.reload();
  await expect(page.getByRole("grid")).toBeVisible();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  expect(await activeRole(page)).toBe("gridcell");
});

test("] and [ page from the keyboard and keep focus in the grid", async ({ page }) => {
  await openView(page, "employees");
  await page.locator('[data-cell="2:2"]').click();
  await page.keyboard.press("]");
  await expect(page.getByTestId("range")).toHaveText(/^51–100 of/);
  await expect.poll(() => activeRole(page)).toBe("gridcell");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("[");
  await expect(page.getByTestId("range")).toHaveText(/^1–50 of/);
  await expect.poll(() => activeRole(page)).toBe("gridcell");
});

test("End goes to the row's last cell and Home back to its start, scrolled there too", async ({ page }) => {
  await openView(page, "employees");
  await page.locator('[data-cell="2:2"]').click();
  const grid = page.getByRole("grid");
  await page.keyboard.press("End");
  await expect.poll(() => grid.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  await page.keyboard.press("Home");
  // The first column is sticky: focusing it scrolled nothing, and the row's first Fields stayed out of sight.
  await expect.poll(() => grid.evaluate((el) => el.scrollLeft)).toBe(0);
  await expect(page.locator('[data-cell="2:0"]')).toBeFocused();
});

test("a locked sidebar entry is reachable by keyboard and says why", async ({ page }) => {
  await openView(page, "employees");
  const vault = page.getByRole("button", { name: /vault/ });
  await vault.focus();
  await expect(vault).toBeFocused();
  await expect(page.locator("#locked-why-vault")).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.getByText("vault cannot be opened")).toBeVisible();
});

test("with a filter and the record panel open, the toolbar stays on one line and usable; the open row is highlighted", async ({ page }) => {
  await openView(page, "employees", { filter: { and: [{ key: "country", operator: "equal", value: "China" }] }, record: "E00003" });
  const toolbar = page.locator(".ws-head");
  const buttons = toolbar.getByRole("button");
  const tops = new Set<number>();
  for (const b of await buttons.all()) if (await b.isVisible()) tops.add(Math.round((await b.boundingBox())!.y));
  expect(tops.size).toBe(1);
  const panel = await page.locator(".record-panel").boundingBox();
  for (const name of ["Undo", "Redo", "Refresh", "Views ▾"]) {
    const b = await toolbar.getByRole("button", { name }).boundingBox();
    expect(b, name).not.toBeNull();
    expect(b!.x + b!.width <= panel!.x || b!.y + b!.height <= panel!.y, `${name} is under the record panel`).toBe(true);
  }
  const row = page.locator(".grid-row.open-record");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("E00003");
  await expect(row).toHaveAttribute("aria-current", "true");
  await page.screenshot({ path: "test-results/layout-filter-panel.png" });
});
