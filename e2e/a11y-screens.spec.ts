/**
 * Every screen and overlay checked with axe (issue 23 item 4): no serious or critical
 * violation on the records screen with the filter builder, the record panel, the cell and
 * header menus, the dialogs (columns, bulk update, export, import, saved views, add Record,
 * shortcuts), and on storage in list and grid views, the selection bar, the details panel, the
 * lightbox, a preview, the upload queue and the move dialog. Sign-in, People and Activity are
 * checked in the team specs. Each state's violations are collected and reported together.
 */
import { expect, type Page, test } from "@playwright/test";
import { cell, openView } from "./testing/records";
import { dropFiles, dropzone } from "./testing/storage";
import { seriousViolations } from "./testing/a11y";

/** The whole page, or (for an overlay over a page already checked) only the overlay itself. */
async function violations(page: Page, state: string, only?: string): Promise<string[]> {
  return (await seriousViolations(page, only)).map((v) => `${state}: ${v}`);
}

test("records: grid, filter builder, record panel, menus and dialogs have no serious axe violations", async ({ page }) => {
  test.slow(); // eleven axe runs over a grid of 50 rows, in CI beside the rest of the suite
  const found: string[] = [];
  await openView(page, "employees", { sort: "employee_id" });
  found.push(...(await violations(page, "grid")));
  // A hovered header (its type tag on the hover background: review 51b #3).
  await page.getByRole("columnheader", { name: /full_name/ }).hover();
  found.push(...(await violations(page, "hovered header", "[role=columnheader]")));

  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const builder = page.getByRole("region", { name: "Filter builder" });
  await builder.getByRole("button", { name: "Filter: add condition" }).click();
  await builder.getByRole("button", { name: "Filter: add group" }).click();
  found.push(...(await violations(page, "filter builder")));
  await openView(page, "employees", { sort: "employee_id", filter: { and: [{ key: "age", operator: "greaterThan", value: 30 }] } });
  await expect(page.getByText(/Records? match/).first()).toBeVisible();
  found.push(...(await violations(page, "filtered grid")));

  await cell(page, 2, "city").click();
  await page.keyboard.press("Shift+Enter");
  await expect(page).toHaveURL(/record=/);
  found.push(...(await violations(page, "record panel")));
  await page.getByRole("tab", { name: "History" }).click();
  found.push(...(await violations(page, "record panel history", ".record-panel")));
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/record=/);

  await cell(page, 2, "city").click({ button: "right" });
  await expect(page.getByRole("menu", { name: "Cell actions" })).toBeVisible();
  found.push(...(await violations(page, "cell menu", "[role=menu]")));
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu", { name: "Cell actions" })).toBeHidden();

  for (const [button, dialog] of [
    ["Columns", "Columns"],
    ["Export…", "Export Records"],
  ] as const) {
    await page.getByRole("button", { name: button, exact: true }).click();
    await expect(page.getByRole("dialog", { name: dialog })).toBeVisible();
    found.push(...(await violations(page, `${dialog} dialog`, "dialog[open], [role=dialog]")));
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: dialog })).toBeHidden();
  }

  await page.getByRole("button", { name: "Add Record" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  found.push(...(await violations(page, "add Record", "dialog[open], [role=dialog]")));
  await page.keyboard.press("Escape");

  await page.getByRole("checkbox", { name: /^Select row / }).first().click();
  await expect(page.getByRole("region", { name: "Selection" })).toBeVisible();
  found.push(...(await violations(page, "row selection")));
  await page.getByRole("button", { name: /^Update 1 selected/ }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  found.push(...(await violations(page, "bulk update", "dialog[open], [role=dialog]")));
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Views ▾" }).click();
  found.push(...(await violations(page, "views menu", "[role=menu]")));
  await page.keyboard.press("Escape");

  await page.locator("body").press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  found.push(...(await violations(page, "shortcuts", "dialog[open], [role=dialog]")));
  await page.keyboard.press("Escape");

  expect(found).toEqual([]);
});

test("storage: list, grid, selection, details, lightbox, preview, upload queue and dialogs have no serious axe violations", async ({ page }) => {
  test.slow();
  const found: string[] = [];
  await page.goto("/storage/public-assets?folder=catalog");
  await expect(page.getByRole("region", { name: /^Files in/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Preview / }).first()).toBeVisible();
  found.push(...(await violations(page, "storage list")));

  await page.getByRole("checkbox", { name: /^Select / }).nth(1).click();
  await expect(page.getByRole("region", { name: "Selection" })).toBeVisible();
  found.push(...(await violations(page, "storage selection")));
  await page.getByRole("region", { name: "Selection" }).getByRole("button", { name: "Move to…" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  found.push(...(await violations(page, "bulk move dialog", "dialog[open], [role=dialog]")));
  await page.keyboard.press("Escape");
  await page.getByRole("region", { name: "Selection" }).getByRole("button", { name: "Clear" }).click();

  await page.getByRole("button", { name: /^Details of / }).first().click();
  await expect(page.getByRole("list", { name: /^Versions of / })).toBeVisible();
  found.push(...(await violations(page, "details panel")));
  await page.getByRole("button", { name: "Close the details" }).click();

  await page.getByRole("button", { name: "Grid view" }).click();
  const first = page.getByRole("button", { name: /^Preview .*\.(png|jpe?g)$/ }).first();
  await expect.poll(() => first.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  found.push(...(await violations(page, "storage grid")));
  await first.click();
  await expect(page.getByRole("dialog")).toBeVisible();
  found.push(...(await violations(page, "lightbox", "dialog[open], [role=dialog]")));
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "List view" }).click();

  await page.goto("/storage/team-files");
  await dropFiles(page, dropzone(page), [{ name: `a11y-${Date.now()}.txt`, type: "text/plain", b64: Buffer.from("axe").toString("base64") }]);
  await expect(page.getByRole("region", { name: "Uploads" })).toContainText("uploaded");
  found.push(...(await violations(page, "upload queue")));

  await page.getByRole("button", { name: /^Preview a11y-/ }).first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  found.push(...(await violations(page, "text preview", "dialog[open], [role=dialog]")));
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: /^Move, rename or copy a11y-/ }).first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  found.push(...(await violations(page, "move dialog", "dialog[open], [role=dialog]")));
  await page.keyboard.press("Escape");

  expect(found).toEqual([]);
});
