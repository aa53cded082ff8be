/** The app shell: sidebar from /api/config, bucket permissions, upstream indicator, help, routes. */
import { expect, test } from "@playwright/test";
import { serviceKey } from "./testing/service";
import { SHOTS_UI } from "./testing/layout";

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
  // The page's own heading, as every other page has (axe: page-has-heading-one).
  await expect(page.getByRole("heading", { level: 1, name: "vault is forbidden" })).toBeVisible();
  expect(requested.filter((u) => u.includes("/vault"))).toEqual([expect.stringMatching(/\/storage\/vault$/)]);
});

test("the sidebar folds away from the top bar, starts folded on a narrow window (200% zoom), and remembers the choice", async ({ page }) => {
  await page.goto("/records/demo/employees");
  const nav = page.getByRole("navigation", { name: "Tables and buckets" });
  const toggle = page.getByRole("button", { name: "Hide tables and buckets" });
  await expect(nav).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await toggle.press("Enter");
  await expect(nav).toHaveCount(0);
  const show = page.getByRole("button", { name: "Show tables and buckets" });
  await expect(show).toHaveAttribute("aria-expanded", "false");
  await expect(show).toBeFocused();
  await page.reload();
  await expect(page.getByRole("grid", { name: "Records of demo.employees" })).toBeVisible();
  await expect(nav).toHaveCount(0);
  await show.click();
  await expect(nav.getByRole("link", { name: "employees" })).toBeVisible();
  // What 1400×900 at 200% zoom lays out: 700 CSS pixels. With no choice made, folded.
  await page.evaluate(() => localStorage.removeItem("baseboard.sidebar"));
  await page.setViewportSize({ width: 700, height: 450 });
  await page.reload();
  await expect(page.getByRole("grid", { name: "Records of demo.employees" })).toBeVisible();
  await expect(nav).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS_UI}/shell-narrow-folded.png` });
  await page.getByRole("button", { name: "Show tables and buckets" }).click();
  await expect(nav.getByRole("link", { name: "departments" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS_UI}/shell-narrow-open.png` });
});

test("? opens the keyboard shortcut help; Escape closes it", async ({ page }) => {
  await page.goto("/records/demo/employees");
  await expect(page.getByRole("grid")).toBeVisible();
  const first = page.locator('[role=grid] [data-cell="0:1"]');
  await first.click();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help).toContainText("Undo the last edit or bulk update");
  // A real modal: focus inside it, and Tab does not wander into the page behind.
  await expect(help.getByRole("button", { name: "Close help" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.locator("[role=grid] :focus")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
  // Focus is back where it was.
  await expect(first).toBeFocused();
});

test("a toast raised while a modal dialog is open shows above its backdrop and can be dismissed", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/storage/public-assets");
  await page.getByRole("button", { name: /^Copy a link to / }).first().click();
  const dialog = page.getByRole("dialog", { name: /^Share / });
  await dialog.getByRole("button", { name: "Copy signed URL" }).click();
  const note = page.getByRole("status").filter({ hasText: "Signed URL copied" });
  await expect(note).toBeVisible();
  // The topmost element at the toast's centre is the toast itself, not the dialog's backdrop.
  const box = (await note.boundingBox())!;
  const onTop = await page.evaluate(([x, y]) => !!document.elementFromPoint(x, y)?.closest(".toast"), [box.x + box.width / 2, box.y + box.height / 2]);
  expect(onTop).toBe(true);
  // Clickable (a page behind a modal dialog is inert): Playwright refuses to click covered elements.
  await note.getByRole("button", { name: "Dismiss notification" }).click();
  await expect(note).toHaveCount(0);
  await expect(dialog).toBeVisible();
});

test("a table the config does not list is explained in place, without asking the service", async ({ page }) => {
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/record/demo/nope")) asked.push(r.url());
  });
  await page.goto("/records/demo/nope");
  await expect(page.getByRole("alert").filter({ hasText: "No table demo.nope" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Could not load" })).toHaveCount(0);
  expect(asked).toEqual([]);
});

test("an address with no page says so inside the shell, with a way back", async ({ page }) => {
  await page.goto("/foo/bar");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "There is no page here" })).toBeVisible();
  await expect(main).toContainText("Baseboard has no page at /foo/bar.");
  await expect(page.getByRole("navigation", { name: "Tables and buckets" }).getByRole("link", { name: "employees" })).toBeVisible();
  await page.screenshot({ path: "test-results/shots/not-found.png" });
  await main.getByRole("link", { name: "Go to the start page" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("My account for the single user says there are no sessions, and offers none to end (review 47b #6)", async ({ page }) => {
  await page.goto("/account");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "My account" })).toBeVisible();
  await expect(main).toContainText("Nobody signs in here (a single user on this machine), so there are no sessions to list or end.");
  await expect(main.getByRole("button", { name: "Sign out everywhere" })).toHaveCount(0);
});
