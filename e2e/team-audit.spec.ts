/**
 * The audit trail in the app: a Record's History tab with Restore (checked through the API, and
 * undone from its toast, the list following both), a conflict that names who changed the Record,
 * a viewer's History (why Restore is off, said on the page), and the admins' Activity page
 * (filters kept in the URL as instants, an entry's diff, links named for their Record, an
 * insert's Records, what a change to a person or a storage job did, a reversed time range); a
 * viewer gets no Activity. Axe on each.
 */
import { type APIRequestContext, expect, test } from "@playwright/test";
import { signInAs, teamUrl, useTeamStack } from "./testing/team";
import { seriousViolations as serious } from "./testing/a11y";

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

test("History tab: each version with who and what; Restore this version, then Undo from its toast", async ({ page }) => {
  await signInAs(page, "eve@example.com", PW);
  const before = await record(page.request, "E00011");
  await update(page.request, "E00011", { job_title: "History Tester", annual_salary: 101_000 });
  await update(page.request, "E00011", { annual_salary: 102_000 });

  await page.goto(`${teamUrl}/records/demo/employees?record=E00011`);
  await page.getByRole("tab", { name: "History" }).click();
  const versions = page.getByRole("list", { name: "Versions of Record E00011, newest first" }).getByRole("listitem");
  // The two changes, and the Record as it was before the first of them.
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(2)).toContainText("As it was before the first recorded change");
  // Named as people know each other, with the email (review 38b #4: the email alone).
  await expect(versions.nth(0)).toContainText("Eve Editor (eve@example.com) changed");
  await expect(versions.nth(0)).toContainText("annual_salary");
  await expect(versions.nth(1)).toContainText("History Tester");
  await expect(versions.nth(0).getByRole("button", { name: "Restore this version" })).toHaveCount(0);
  await expect(versions.nth(0)).toContainText("Current version");
  expect(await serious(page)).toEqual([]);
  await page.screenshot({ path: "test-results/audit-history-tab.png" });

  // The older version: salary back to what it was after the first change; the title stays.
  // Named by its version (who, when), not one of a dozen alike.
  await expect(versions.nth(1).getByRole("button", { name: /^Restore this version \(Eve Editor \(eve@example\.com\), .+\)$/ })).toBeVisible();
  await versions.nth(1).getByRole("button", { name: "Restore this version" }).click();
  const toastBox = page.getByRole("status").filter({ hasText: "Restored Record E00011" });
  await expect(toastBox).toBeVisible();
  // The toast rises beside the panel, over none of it: not its Restore buttons, not its
  // Delete…, Discard and Save (review 47b: a conflict toast covered the Restore just pressed).
  const t = (await toastBox.boundingBox())!;
  const panelBox = (await page.locator(".record-panel").boundingBox())!;
  expect(t.x + t.width, "the toast covers the record panel").toBeLessThanOrEqual(panelBox.x);
  await expect.poll(async () => (await record(page.request, "E00011")).annual_salary).toBe(101_000);
  expect((await record(page.request, "E00011")).job_title).toBe("History Tester");
  // The restore is itself recorded: a third version, by eve, marked as a restore (review 47b #2:
  // Activity read it as a plain update).
  await expect(versions).toHaveCount(4);
  const trail = await page.request.get(`${teamUrl}/api/audit?table=demo/employees&record=E00011&limit=1`, { headers });
  expect((await trail.json()).items[0]).toMatchObject({ action: "update", undoOf: expect.stringMatching(/^restore: Restore E00011 to the version of .+ (?:[A-Z]{2,5}|GMT[+-]\d{1,2}(?::\d\d)?)$/) });
  await expect(versions.nth(0)).toContainText("102,000");

  // Undo from the toast puts 102,000 back, and the list follows: the undo is the current version.
  await toastBox.getByRole("button", { name: "Undo" }).click();
  await expect.poll(async () => (await record(page.request, "E00011")).annual_salary).toBe(102_000);
  await expect(versions).toHaveCount(5);
  // The focus is back in the panel where the restore was made, not on the grid behind it (review 51b #5).
  await expect(page.getByRole("tab", { name: "History" })).toBeFocused();
  await expect(versions.nth(0)).toContainText("Current version");
  await expect(versions.nth(0).locator("ins")).toHaveText("102,000");
  await expect(versions.nth(1).getByRole("button", { name: "Restore this version" })).toBeVisible();
  // An editor is not told about edit access.
  await expect(page.getByText("You can read this history")).toHaveCount(0);
  // The Record before its first recorded change: both Fields back as they were.
  await versions.last().getByRole("button", { name: "Restore this version" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Restored Record E00011 as it was before" })).toBeVisible();
  await expect.poll(async () => (await record(page.request, "E00011")).annual_salary).toBe(before.annual_salary);
  expect((await record(page.request, "E00011")).job_title).toBe(before.job_title);
  // The keyboard is not stranded: the focus stayed in the panel, where Ctrl+Z undoes the restore
  // as anywhere in Records (review 38b #2: it did nothing there), and Esc closes it.
  await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest(".record-panel"))).toBe(true);
  await page.keyboard.press("Control+z");
  await expect.poll(async () => (await record(page.request, "E00011")).annual_salary).toBe(102_000);
  expect((await record(page.request, "E00011")).job_title).toBe("History Tester");
  await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest(".record-panel"))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/record=/);
});

test("History after a change of the key: the rename, and the versions from before it, restorable", async ({ page }) => {
  await signInAs(page, "eve@example.com", PW);
  await update(page.request, "E00017", { job_title: "Before The Rename" });
  await update(page.request, "E00017", { employee_id: "R-17", job_title: "Renamed" });

  await page.goto(`${teamUrl}/records/demo/employees?record=R-17`);
  await page.getByRole("tab", { name: "History" }).click();
  const versions = page.getByRole("list", { name: "Versions of Record R-17, newest first" }).getByRole("listitem");
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText("Eve Editor (eve@example.com) changed the key from E00017 to R-17");
  await expect(versions.nth(0)).toContainText("Current version");
  await expect(versions.nth(0).locator("del")).toHaveText("Before The Rename");
  await expect(versions.nth(1)).toContainText("Before The Rename");
  expect(await serious(page)).toEqual([]);
  await page.screenshot({ path: "test-results/audit-history-renamed.png" });

  // Restoring the version from before the rename sets its Fields back and keeps today's key.
  await versions.nth(1).getByRole("button", { name: "Restore this version" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Restored Record R-17" })).toBeVisible();
  await expect.poll(async () => (await record(page.request, "R-17"))?.job_title).toBe("Before The Rename");
  expect(await record(page.request, "E00017")).toBeUndefined();
});

test("Activity: a change of a Record's key is one Record, linked by its new key", async ({ page }) => {
  await signInAs(page, "ada@example.com", PW);
  await update(page.request, "E00018", { employee_id: "R-18" });
  await page.goto(`${teamUrl}/activity?kind=update`);
  const row = page.getByRole("table", { name: "Activity, newest first" }).locator("tbody tr").first();
  await expect(row).toContainText("Record R-18 (was E00018)");
  await row.getByRole("button").click();
  await expect(page.locator(".activity-diff")).toContainText("Record R-18 (was E00018)");
  await page.getByRole("link", { name: "Open Record R-18" }).click();
  await expect(page.getByRole("heading", { name: "Record R-18" })).toBeVisible();
  expect(await serious(page)).toEqual([]);
});

test("a viewer's History: why Restore is off is on the page, and the buttons look off", async ({ page, browser }) => {
  await signInAs(page, "eve@example.com", PW);
  await update(page.request, "E00013", { city: "Viewer Town" });
  await update(page.request, "E00013", { city: "Viewer City" });
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const vic = await ctx.newPage();
  await signInAs(vic, "vic@example.com", PW);
  await vic.goto(`${teamUrl}/records/demo/employees?record=E00013`);
  await vic.getByRole("tab", { name: "History" }).click();
  const versions = vic.getByRole("list", { name: "Versions of Record E00013, newest first" }).getByRole("listitem");
  await expect(versions).toHaveCount(3);
  const note = vic.getByText("You can read this history; restoring a version needs edit access to this table.");
  await expect(note).toBeVisible();
  await expect(note).toContainText("Your role (viewer) cannot change Records of table demo/employees.");
  await expect(note).toHaveCount(1);
  const restore = versions.nth(1).getByRole("button", { name: "Restore this version" });
  await expect(restore).toHaveAttribute("aria-disabled", "true");
  await expect(restore).toHaveAccessibleDescription(/restoring a version needs edit access/);
  // The kit's disabled look, as a disabled button has.
  expect(Number(await restore.evaluate((el) => getComputedStyle(el).opacity))).toBeLessThan(0.5);
  expect(await restore.evaluate((el) => getComputedStyle(el).cursor)).toBe("not-allowed");
  expect(await serious(vic)).toEqual([]);
  await vic.screenshot({ path: "test-results/audit-history-viewer.png" });
  // Reachable from the keyboard, and says why when used.
  await restore.focus();
  await vic.keyboard.press("Enter");
  await expect(vic.getByRole("status").filter({ hasText: "Your role (viewer) cannot change Records of table demo/employees." })).toBeVisible();
  expect((await record(page.request, "E00013")).city).toBe("Viewer City");
  await ctx.close();
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
  await expect(page.getByText(`Conflict: job_title of ${id} was changed by Ada Admin (ada@example.com)`)).toBeVisible();
  expect((await record(page.request, id)).job_title).toBe("Changed by Ada");
  // The cursor is back on the refused cell (Enter had moved it down), to edit again there.
  await expect(cell).toHaveClass(/\bactive\b/);
  await expect(cell).toBeFocused();
});

test("Activity: admins filter the trail, open an entry's diff and go to the Record; a viewer gets neither", async ({ page, browser }) => {
  await signInAs(page, "ada@example.com", PW);
  await update(page.request, "E00012", { city: "Activity City" });
  await page.getByRole("button", { name: /Ada Admin/ }).click();
  await page.getByRole("link", { name: "Activity" }).click();
  await expect(page.getByRole("heading", { name: "Activity" })).toBeVisible();
  const table = page.getByRole("table", { name: "Activity, newest first" });
  await expect(table.getByRole("row").nth(1)).toContainText("ada@example.com");

  // Part of an email matches nobody, and the page says the filter takes a whole one (offered as typed).
  const person = page.getByLabel("Person (whole email)");
  await expect(page.locator(`datalist#${await person.getAttribute("list")} option[value="eve@example.com"]`)).toHaveCount(1);
  await person.fill("eve");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("status").filter({ hasText: "No entries match these filters." })).toContainText("takes a whole email");
  // Filter by person: only eve's entries (from the tests before).
  await person.fill("eve@example.com");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/actor=eve%40example.com/);
  const rows = table.locator("tbody tr");
  await expect(rows.first()).toContainText("eve@example.com");
  for (const text of await rows.allInnerTexts()) expect(text).toContain("eve@example.com");
  // Eve's conflicted edit (the test before) matched nothing: its row names the Record it asked for
  // (named by its filter's key before it was sent: review 52a #1).
  await expect(rows.filter({ hasText: "nothing matched" }).first()).toContainText(/demo\/employees · Record E\d+/);

  // Back to everyone on employees, kind update; open ada's entry.
  await page.getByRole("button", { name: "Clear" }).click();
  await page.getByLabel("Table or bucket").selectOption("table:demo/employees");
  await page.getByLabel("Kind").selectOption("update");
  await page.getByRole("button", { name: "Apply" }).click();
  const first = rows.first();
  await expect(first).toContainText("ada@example.com");
  // The kind in words, in the list and in the filter.
  await expect(first).toContainText("Updated Records");
  await expect(page.getByLabel("Kind").locator("option:checked")).toHaveText("Updated Records");
  await first.getByRole("button").click();
  const diff = page.locator(".activity-diff");
  await expect(diff).toContainText("Activity City");
  expect(await serious(page)).toEqual([]);
  await page.screenshot({ path: "test-results/audit-activity.png", fullPage: true });
  await diff.getByRole("link", { name: "Open Record E00012", exact: true }).click();
  await expect(page).toHaveURL(/records\/demo\/employees\?.*record=E00012/);
  await expect(page.getByRole("heading", { name: /Record E00012/ })).toBeVisible();
  // Back: the same filters, the entry still open and the focus on it (review 53b #9: collapsed).
  await page.goBack();
  await expect(page).toHaveURL(/\/activity\?.*entry=\d+/);
  await expect(diff).toContainText("Activity City");
  await expect(first.getByRole("button")).toBeFocused();
  await expect(first.getByRole("button")).toHaveAttribute("aria-expanded", "true");
  // Closing it is no step of its own to go Back over.
  await first.getByRole("button").click();
  await expect(diff).toHaveCount(0);
  await expect(page).not.toHaveURL(/entry=/);

  // An insert lists the Records it added, each with its own link.
  const added = await page.request.post(`${teamUrl}/api/v0/record/demo/employees/insert`, {
    headers,
    data: { records: [{ employee_id: "E90001", full_name: "Added One" }, { employee_id: "E90002", full_name: "Added Two" }] },
  });
  expect(added.status(), await added.text()).toBe(200);
  await page.goto(`${teamUrl}/activity?kind=insert`);
  await rows.first().getByRole("button").click();
  await expect(diff.getByRole("listitem")).toHaveText([/Record E90001 added/, /Record E90002 added/]);
  await expect(diff.getByRole("link", { name: "Open Record E90002", exact: true })).toHaveAttribute("href", /record=E90002/);
  expect(await serious(page)).toEqual([]);
  await page.screenshot({ path: "test-results/audit-activity-insert.png", fullPage: true });
  // A link naming what the page cannot show says so, and lists the rest (review 49b #3).
  await page.goto(`${teamUrl}/activity?kind=nope&table=demo/nope`);
  await expect(page.getByRole("status").filter({ hasText: '"nope" is not a kind of entry Activity knows: showing every kind.' })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "You have no access to table demo/nope, or there is none: showing everything you may read." })).toBeVisible();
  await expect(rows.first()).toBeVisible();

  // Times go into the URL as instants: a link made in Chicago shows the same window in Tokyo,
  // in Tokyo's own time; an older link without a zone is read as the viewer's local time.
  const chicago = await browser.newContext({ timezoneId: "America/Chicago" });
  const inChicago = await chicago.newPage();
  await signInAs(inChicago, "ada@example.com", PW);
  await inChicago.goto(`${teamUrl}/activity`);
  // Typed as a person writes it (the browser's own date-time box dropped "2026-11-25 21:17").
  await inChicago.getByLabel("From").fill("2026-11-25 21:17");
  const sent = inChicago.waitForRequest((r) => r.url().includes("/api/audit?") && r.url().includes("since="));
  await inChicago.getByRole("button", { name: "Apply" }).click();
  expect(new URL((await sent).url()).searchParams.get("since")).toBe("2026-11-26T03:17:00.000Z");
  await expect(inChicago).toHaveURL(/since=2026-11-26T03%3A17%3A00.000Z/);
  const shared = inChicago.url();
  await chicago.close();
  const tokyo = await browser.newContext({ timezoneId: "Asia/Tokyo" });
  const inTokyo = await tokyo.newPage();
  await signInAs(inTokyo, "ada@example.com", PW);
  await inTokyo.goto(shared);
  await expect(inTokyo.getByLabel("From")).toHaveValue("2026-11-26 12:17");
  // (Not a late refetch of the shared link's page, whose since is 03:17 UTC.)
  const old = inTokyo.waitForRequest((r) => r.url().includes("/api/audit?") && r.url().includes("since=") && !r.url().includes("since=2026-11-26T03"));
  await inTokyo.goto(`${teamUrl}/activity?since=2026-11-25T21%3A17`);
  expect(new URL((await old).url()).searchParams.get("since")).toBe("2026-11-25T12:17:00.000Z");
  await expect(inTokyo.getByLabel("From")).toHaveValue("2026-11-25 21:17");
  await tokyo.close();

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

test("Activity: a storage job shows how it ended, recorded when it ended", async ({ page }) => {
  await signInAs(page, "ada@example.com", PW);
  for (const name of ["one.txt", "two.txt"]) {
    const up = await page.request.post(`${teamUrl}/api/v0/storage/object/team-files`, {
      headers: { origin: teamUrl, "x-baseboard-client": "1" },
      multipart: { key: `activity-job/${name}`, file: { name, mimeType: "text/plain", buffer: Buffer.from(name) } },
    });
    expect(up.status(), await up.text()).toBe(200);
  }
  const job = await page.request.post(`${teamUrl}/api/v0/storage/jobs/team-files`, { headers, data: { action: "copy", from: "activity-job/", to: "activity-job-copy/" } });
  expect(job.status(), await job.text()).toBe(202);
  await expect
    .poll(async () => ((await (await page.request.get(`${teamUrl}/api/audit?kind=storage-job&bucket=team-files`, { headers })).json()) as { items: { job?: { state: string } }[] }).items[0]?.job?.state)
    .toBe("done");
  await page.goto(`${teamUrl}/activity?kind=storage-job`);
  const rows = page.getByRole("table", { name: "Activity, newest first" }).locator("tbody tr");
  await rows.first().getByRole("button").click();
  await expect(page.locator(".activity-diff")).toContainText("The job ended: done · 2 of 2 files");
  const files = page.getByRole("list", { name: "Files in the folder when the job started" }).getByRole("listitem");
  await expect(files).toHaveText(["activity-job/one.txt", "activity-job/two.txt"]);
  await expect(page.getByRole("link", { name: "Open the source folder activity-job/" })).toBeVisible();
  expect(await serious(page)).toEqual([]);
  await page.screenshot({ path: "test-results/audit-activity-job.png", fullPage: true });
  await page.getByRole("link", { name: "Open the destination folder activity-job-copy/" }).click();
  await expect(page).toHaveURL(/\/storage\/team-files\?folder=activity-job-copy/);
  await expect(page.getByText("one.txt").first()).toBeVisible();
});

test("Activity: a Record delete shows each Record as it was; an import, what it changed and added", async ({ page }) => {
  await signInAs(page, "ada@example.com", PW);
  const added = await page.request.post(`${teamUrl}/api/v0/record/demo/employees/insert`, { headers, data: { records: [{ employee_id: "E90101", full_name: "Gone Soon", city: "Lisbon" }] } });
  expect(added.status(), await added.text()).toBe(200);
  const gone = await page.request.post(`${teamUrl}/api/v0/record/demo/employees/delete`, { headers, data: { filter: { and: [{ key: "employee_id", operator: "equal", value: "E90101" }] }, expectedCount: 1 } });
  expect(gone.status(), await gone.text()).toBe(200);
  await page.goto(`${teamUrl}/activity?kind=delete-records`);
  const rows = page.getByRole("table", { name: "Activity, newest first" }).locator("tbody tr");
  await rows.first().getByRole("button").click();
  const list = page.getByRole("list", { name: "Records deleted (1)" });
  await expect(rows.first()).toContainText("Deleted Records");
  await expect(list).toContainText("Record E90101 deleted, as it was:");
  await expect(list).toContainText("Gone Soon");
  await expect(list).toContainText("Lisbon");
  expect(await serious(page)).toEqual([]);
  await page.screenshot({ path: "test-results/audit-activity-delete.png", fullPage: true });
  // An import's entry lists what it changed and the Records it added.
  const imported = await page.request.post(`${teamUrl}/api/v0/record/demo/employees/import`, { headers: { ...headers, "content-type": "text/csv" }, data: "employee_id,city\nE00013,Import City\nE90102,Added City\n" });
  expect(imported.status(), await imported.text()).toBe(200);
  await page.goto(`${teamUrl}/activity?kind=import`);
  await expect(rows.first()).toContainText("Imported a CSV");
  await rows.first().getByRole("button").click();
  await expect(page.locator(".activity-diff")).toContainText("Import City");
  await expect(page.getByRole("list", { name: "Records added (1)" })).toContainText("Record E90102 added");
});

test("Activity says what a change to a person or a storage job did; a reversed time range is said, not asked", async ({ page }) => {
  await signInAs(page, "ada@example.com", PW);
  const vic = `${teamUrl}/api/people/vic%40example.com`;
  const asks = [
    await page.request.put(`${vic}/grants`, { headers, data: { resource: "bucket:team-files", level: "editor" } }),
    await page.request.delete(`${vic}/sessions`, { headers }),
    await page.request.patch(vic, { headers, data: { disabled: true } }),
    await page.request.patch(vic, { headers, data: { disabled: false } }),
  ];
  for (const res of asks) expect(res.status(), await res.text()).toBe(200);
  for (const key of ["summary-job/one.txt", "summary-job/uno.txt"]) {
    const up = await page.request.post(`${teamUrl}/api/v0/storage/object/team-files`, {
      headers: { origin: teamUrl, "x-baseboard-client": "1" },
      multipart: { key, file: { name: "f.txt", mimeType: "text/plain", buffer: Buffer.from(key) } },
    });
    expect(up.status(), await up.text()).toBe(200);
  }
  // Replacing summary-job/uno.txt, which the move removes with every version.
  const job = await page.request.post(`${teamUrl}/api/v0/storage/jobs/team-files`, { headers, data: { action: "move", from: "summary-job/one.txt", to: "summary-job/uno.txt", overwrite: true } });
  expect(job.status(), await job.text()).toBe(202);

  await page.goto(`${teamUrl}/activity?kind=people`);
  const rows = page.getByRole("table", { name: "Activity, newest first" }).locator("tbody tr");
  await expect(rows.nth(0)).toContainText("Enabled vic@example.com");
  await expect(rows.nth(1)).toContainText("Disabled vic@example.com");
  await expect(rows.nth(2)).toContainText("Ended vic@example.com's sessions");
  await expect(rows.nth(3)).toContainText("Set bucket team-files to editor for vic@example.com");
  await rows.nth(1).getByRole("button").click();
  await expect(page.locator(".activity-diff")).toContainText("PATCH /api/people/vic@example.com");
  await expect(page.getByRole("table", { name: "Activity, newest first" })).not.toContainText("%40");
  expect(await serious(page)).toEqual([]);
  await page.screenshot({ path: "test-results/audit-activity-people.png", fullPage: true });

  await page.goto(`${teamUrl}/activity?kind=storage-job`);
  await expect(rows.first()).toContainText("Moved summary-job/one.txt → summary-job/uno.txt, replacing 1 file");
  await expect(rows.nth(1)).toContainText("Copied the folder activity-job/ → activity-job-copy/ (2 files)");
  await rows.first().getByRole("button").click();
  const replaced = page.getByRole("list", { name: "Files replaced by the move" });
  await expect(replaced).toContainText("summary-job/uno.txt · 1 version removed");
  await expect(replaced).toContainText(`/summary-job/uno.txt · ${"summary-job/uno.txt".length} bytes`);
  await page.screenshot({ path: "test-results/audit-activity-replaced.png" });

  // A change refused for the role says what was asked, not only "Refused".
  const eveCtx = await page.context().browser()!.newContext();
  const eve = await eveCtx.newPage();
  await signInAs(eve, "eve@example.com", PW);
  const del = await eve.request.post(`${teamUrl}/api/v0/record/demo/employees/delete`, { headers, data: { filter: { and: [{ key: "employee_id", operator: "equal", value: "E00014" }] } } });
  expect(del.status()).toBe(403);
  await eveCtx.close();
  await page.goto(`${teamUrl}/activity?kind=refused`);
  await expect(rows.first()).toContainText("Tried to delete Records (refused)");
  await expect(rows.first()).toContainText("eve@example.com");

  // From after To: said at once, and nothing is asked of the trail.
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/audit?")) asked.push(r.url());
  });
  await page.goto(`${teamUrl}/activity?since=2026-11-26T15%3A00%3A00.000Z&until=2026-11-26T14%3A00%3A00.000Z`);
  const reversed = page.getByRole("alert").filter({ hasText: "the range is reversed" });
  await expect(reversed).toBeVisible();
  await expect(page.getByText("No entries match these filters")).toHaveCount(0);
  await expect(page.getByLabel("From")).toHaveAttribute("aria-invalid", "true");
  expect(asked).toEqual([]);
  await page.screenshot({ path: "test-results/audit-activity-reversed.png", fullPage: true });
  // Text that is no time is said at the box, and Apply asks nothing.
  await page.getByLabel("From").fill("yesterday");
  await expect(page.getByText("A date (2026-11-27) or a date and time (2026-11-27 07:02), in your time zone.")).toBeVisible();
  await page.getByRole("button", { name: "Apply" }).click();
  expect(asked).toEqual([]);
  // The focus goes to the box that says why; the To box, no longer the range applied, is not marked.
  await expect(page.getByLabel("From")).toBeFocused();
  await expect(page.getByLabel("To", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  // Swapped in the form, the entries come.
  await page.getByLabel("From").fill("2026-01-01");
  await page.getByLabel("To", { exact: true }).fill("2099-01-01T00:00");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(reversed).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Activity, newest first" }).locator("tbody tr").first()).toBeVisible();
});

test("Activity keeps to the page's width: a long file key wraps, Outcome stays in sight", async ({ page }) => {
  await signInAs(page, "ada@example.com", PW);
  await page.setViewportSize({ width: 1366, height: 850 });
  const key = `${"y".repeat(150)}/long-key.txt`;
  const up = await page.request.post(`${teamUrl}/api/v0/storage/object/team-files`, {
    headers: { origin: teamUrl, "x-baseboard-client": "1" },
    multipart: { key, file: { name: "long-key.txt", mimeType: "text/plain", buffer: Buffer.from("long") } },
  });
  expect(up.status(), await up.text()).toBe(200);
  await page.goto(`${teamUrl}/activity`);
  const table = page.getByRole("table", { name: "Activity, newest first" });
  await expect(table).toContainText("long-key.txt");
  await expect(table.getByRole("columnheader", { name: "Outcome" })).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
  await page.screenshot({ path: "test-results/audit-activity-long-key.png" });
  // At 700 px (or 200% zoom) the On column keeps room for a name (it had 36 px: review 31b #5).
  await page.setViewportSize({ width: 700, height: 850 });
  const on = table.locator("td.activity-on").first();
  expect((await on.boundingBox())!.width).toBeGreaterThanOrEqual(80);
  await page.screenshot({ path: "test-results/audit-activity-700.png" });
});

test("Activity's Older entries keeps the keyboard: the focus goes to the first entry it loaded, not the page", async ({ page }) => {
  await signInAs(page, "ada@example.com", PW);
  // More entries than a page of 50.
  for (let i = 0; i < 55; i++) {
    const r = await page.request.post(`${teamUrl}/api/v0/record/demo/employees/update`, { headers, data: { filter: { and: [{ key: "employee_id", operator: "equal", value: "E00321" }] }, values: [{ key: "city", value: `Paged ${i}` }] } });
    expect(r.status()).toBe(200);
  }
  await page.goto(`${teamUrl}/activity`);
  const toggles = page.locator(".activity-table [data-entry-toggle]");
  await expect(toggles).toHaveCount(50);
  await page.getByRole("button", { name: "Older entries" }).press("Enter");
  await expect(toggles.nth(50)).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("BUTTON");
});

test("Activity's link to an uploaded file opens that file's details, not only its folder; a file gone since is said", async ({ page }) => {
  await signInAs(page, "ada@example.com", PW);
  for (const key of ["activity-link/keep.txt", "activity-link/gone.txt"]) {
    const up = await page.request.post(`${teamUrl}/api/v0/storage/object/team-files`, {
      headers: { origin: teamUrl, "x-baseboard-client": "1" },
      multipart: { key, file: { name: "x.txt", mimeType: "text/plain", buffer: Buffer.from(key) } },
    });
    expect(up.status(), await up.text()).toBe(200);
  }
  const gone = await page.request.delete(`${teamUrl}/api/v0/storage/object/team-files/activity-link/gone.txt`, { headers: { origin: teamUrl, "x-baseboard-client": "1" } });
  expect(gone.status(), await gone.text()).toBe(200);
  await page.goto(`${teamUrl}/activity?kind=upload&bucket=team-files`);
  const rows = page.getByRole("table", { name: "Activity, newest first" }).locator("tbody tr");
  await rows.filter({ hasText: "activity-link/keep.txt" }).first().getByRole("button").click();
  await page.getByRole("link", { name: "Open activity-link/keep.txt" }).click();
  await expect(page).toHaveURL(/\/storage\/team-files\?folder=activity-link%2F$/);
  const details = page.getByRole("complementary", { name: "keep.txt" });
  await expect(details).toBeVisible();
  await expect(details.getByRole("heading", { name: "keep.txt" })).toBeFocused();
  await page.screenshot({ path: "test-results/audit-activity-file-link.png" });

  // The other upload's file was deleted since: the link says so rather than opening nothing.
  await page.goto(`${teamUrl}/activity?kind=upload&bucket=team-files`);
  await rows.filter({ hasText: "activity-link/gone.txt" }).first().getByRole("button").click();
  await page.getByRole("link", { name: "Open activity-link/gone.txt" }).click();
  await expect(page.getByText("activity-link/gone.txt is no longer in team-files")).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement !== null && document.activeElement !== document.body)).toBe(true);
  await expect(page.getByRole("complementary", { name: "gone.txt" })).toHaveCount(0);
});
