/**
 * First run: nobody signs in yet (the single user on loopback), and the first person is added
 * from the People page. That turns sign-in on; the invite link must stay on screen to be opened
 * (it went under a "session ended" notice, then the sign-in page, and nobody could sign in).
 */
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./testing/a11y";
import { teamUrl, useTeamStack } from "./testing/team";

useTeamStack(() => {});

test("adding the first person keeps the invite link on screen, as an admin by default, and the link signs them in", async ({ page }) => {
  // A new install's Activity says it is empty, not that filters (none are set) match nothing.
  await page.goto(`${teamUrl}/activity`);
  await expect(page.getByRole("main").getByRole("status")).toHaveText(/^Nothing has been changed through Baseboard yet/);
  await page.goto(`${teamUrl}/people`);
  const form = page.getByRole("form", { name: "Add a person" });
  // The first person manages the others: admin unless chosen otherwise, and said when not.
  await expect(form.getByLabel("Role")).toHaveValue("admin");
  // Nobody yet: no table of people with only its headers under the form.
  await expect(page.getByText("Nobody signs in yet")).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  // Nothing but admin is offered for the first (a viewer first left nobody to manage people: review 47b #3).
  await expect(form.getByLabel("Role").locator("option")).toHaveText(["admin"]);
  await expect(form.getByRole("status")).toContainText("The first person is an admin: they add the others");
  await form.getByLabel("Email").fill("first@example.com");
  await form.getByRole("button", { name: "Add and get invite link" }).click();
  const link = page.getByRole("textbox", { name: "Invite link for first@example.com" });
  await expect(link).toHaveValue(/\/invite\/[A-Za-z0-9_-]{20,}$/);
  // Sign-in is on now, and this tab is nobody: still no notice, no trip to the sign-in page.
  await page.waitForTimeout(3_000);
  await expect(page.getByRole("dialog", { name: "Your session has ended" })).toHaveCount(0);
  expect(new URL(page.url()).pathname).toBe("/people");
  await expect(link).toBeVisible();
  // Nothing beside it says otherwise (review 30b #6): no "sign in first" error, no empty list,
  // no "nobody signs in yet", and the account menu no longer says single user.
  await expect(page.getByText("Sign in to Baseboard first")).toHaveCount(0);
  await expect(page.getByText("Nobody signs in yet")).toHaveCount(0);
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Add a person" })).toHaveCount(0);
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: "test-results/team-first-person.png" });
  await page.getByRole("link", { name: "open the link" }).click();
  await expect(page).toHaveURL(/\/invite\//);
  await page.getByLabel("New password", { exact: true }).fill("an opening admin passphrase");
  await page.getByLabel(/Repeat|again/i).fill("an opening admin passphrase");
  await page.getByRole("button", { name: /Set password/ }).click();
  await page.waitForURL(`${teamUrl}/`);
  await page.goto(`${teamUrl}/people`);
  await expect(page.getByRole("row", { name: /first@example.com/ })).toContainText("admin");
});
