/**
 * Screenshots of the grid tools at 1440×900 and 1024×768 (record panel, menus, paste preview,
 * export progress, saved views in the sidebar), for a person to look at. Each also checks that
 * the overlay fits in the window. The checks always run (about 6 s a size); the screenshots are
 * written only with SCREENSHOTS=1, to test-results/screens/.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { cell, openView } from "./testing/records";

const sizes = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
];

async function fits(page: Page, what: string | Locator) {
  const box = (await (typeof what === "string" ? page.locator(what) : what).first().boundingBox())!;
  const vp = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(vp.width + 1);
  expect(box.y + box.height).toBeLessThanOrEqual(vp.height + 1);
}

for (const size of sizes) {
  const tag = `${size.width}x${size.height}`;
  test(`screens ${tag}`, async ({ page }) => {
    await page.setViewportSize(size);
    const shot = async (name: string) => {
      if (process.env.SCREENSHOTS) await page.screenshot({ path: `test-results/screens/${name}-${tag}.png` });
    };

    // Record panel, with a joined table.
    await openView(page, "employees", { join: "departments:department=department", record: "E00010" });
    await expect(page.getByRole("complementary").filter({ hasText: "Record E00010" })).toBeVisible();
    await fits(page, ".record-panel");
    await shot("panel");
    await page.keyboard.press("Escape");

    // Catalog: image preview and json in the panel.
    await openView(page, "catalog", { record: "SKU-001" });
    await page.waitForTimeout(500);
    await shot("panel-catalog");

    // Cell menu and header menu.
    await openView(page, "employees", { sort: "employee_id" });
    await cell(page, 3, "department").click({ button: "right" });
    await expect(page.getByRole("menu")).toBeVisible();
    await fits(page, page.getByRole("menu"));
    await shot("menu-cell");
    await page.keyboard.press("Escape");
    await page.getByRole("columnheader", { name: /^city/ }).click({ button: "right" });
    await expect(page.getByRole("menu")).toBeVisible();
    await fits(page, page.getByRole("menu"));
    await shot("menu-header");
    await page.keyboard.press("Escape");

    // Paste preview with a failing cell, and a range selected.
    await cell(page, 2, "age").click();
    await page.keyboard.press("Shift+ArrowDown");
    await page.keyboard.press("Shift+ArrowRight");
    await shot("range");
    await cell(page, 2, "city").click();
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData("text/plain", "Oslo\t2024-13-01\nBergen\t2024-02-01\nTromsø\t");
      document.activeElement?.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await expect(page.getByRole("dialog")).toBeVisible();
    await fits(page, page.getByRole("dialog"));
    await shot("paste-preview");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

    // Export in progress (slowed so the progress shows).
    await page.evaluate(() => {
      delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    });
    await page.route("**/api/v0/record/demo/employees/query", async (route) => {
      if (route.request().headers()["x-baseboard-client"] && (route.request().postData() ?? "").includes('"limit":5000')) await new Promise((r) => setTimeout(r, 3000));
      await route.continue();
    });
    await page.getByRole("button", { name: "Export…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Export" }).click();
    await expect(page.getByRole("progressbar")).toBeVisible();
    await shot("export");
    await page.unrouteAll({ behavior: "ignoreErrors" });

    // Saved views in the sidebar.
    const sales = { and: [{ key: "department", operator: "equal", value: "Sales" }] };
    for (const [name, sort] of [["Sales, best paid", "-annual_salary"], ["Sales, youngest", "age"]]) {
      await openView(page, "employees", { filter: sales, sort });
      await page.getByRole("button", { name: "Views ▾" }).click();
      await page.getByRole("menuitem", { name: "Save this view…" }).click();
      await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill(name);
      await page.getByRole("button", { name: "Save view" }).click();
    }
    await page.getByRole("navigation").getByRole("link", { name: "Sales, best paid" }).click();
    await shot("views-sidebar");
    await page.getByRole("button", { name: "Views ▾" }).click();
    await page.getByRole("menuitem", { name: /Manage saved views/ }).click();
    await fits(page, page.getByRole("dialog"));
    await shot("views-manage");
  });
}
