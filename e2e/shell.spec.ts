/** The app shell: sidebar from /api/config, bucket permissions, upstream indicator, help, routes. */
import { expect, test } from "@playwright/test";
import { serviceKey } from "./support";

test("sidebar lists tables and buckets with permissions; forbidden is locked; storage route opens a bucket", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Tables and buckets" });
  await expect(nav.getByRole("link", { name: "employees" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "departments" })).toBeVisible();
  await expect(nav.getByRole("link", { name: /public-assets/ })).toContainText("public");
  await expect(nav.getByRole("link", { name: /team-files/ })).toContainText("limited");
  // Forbidden: shown, locked, not a link.
  await expect(nav.getByText("vault")).toBeVisible();
  await expect(nav.getByRole("link", { name: /vault/ })).toHaveCount(0);
  await expect(nav.locator('[aria-disabled="true"]', { hasText: "vault" })).toContainText("forbidden");

  await expect(page.getByTestId("upstream")).toHaveText(/Local service/);
  // No secret reaches the page: not in the DOM, not in what the app stored.
  const key = serviceKey();
  expect(await page.content()).not.toContain(key);
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(key);

  await nav.getByRole("link", { name: /public-assets/ }).click();
  await expect(page).toHaveURL(/\/storage\/public-assets/);
  await nav.getByRole("link", { name: "employees" }).click();
  await expect(page.getByRole("grid", { name: "Records of demo.employees" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "employees" })).toHaveAttribute("aria-current", "page");

  // A forbidden bucket reached by URL is explained, never requested.
  const requested: string[] = [];
  page.on("request", (r) => requested.push(r.url()));
  await page.goto("/storage/vault");
  await expect(page.getByRole("alert")).toContainText("vault is forbidden");
  expect(requested.filter((u) => u.includes("/vault"))).toEqual([expect.stringMatching(/\/storage\/vault$/)]);
});

test("? opens the keyboard shortcut help; Escape closes it", async ({ page }) => {
  await page.goto("/records/demo/employees");
  await expect(page.getByRole("grid")).toBeVisible();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help).toContainText("Undo the last edit or bulk update");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
});
