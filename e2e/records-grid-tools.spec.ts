/**
 * The grid's daily tools (issue 14): record panel, copy, paste, export, context menus, column
 * widths and the frozen key, edits under a sort, saved views, bulk update of the confirmed set,
 * CSV import. Each test works on its own Records (E007xx–E009xx) and checks through the API.
 */
import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { apiQuery, apiRecord, apiUpdate, byPk, cell, openView } from "./testing/records";
import { seriousViolations } from "./testing/a11y";

const pkOr = (...pks: string[]) => ({ or: pks.map((value) => ({ key: "employee_id", operator: "equal", value })) });
const bySort = (key: string) => [{ key, direction: "ascending" }];

test.beforeEach(async ({ context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
});

async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}
/** Ctrl/⌘+V as the browser delivers it: a paste event carrying the text, on the focused cell. */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData("text/plain", t);
    document.activeElement?.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

test("record panel: open by button, Space and Shift+Enter; edit saved with a conflict check; next; in the URL", async ({ page }) => {
  await openView(page, "employees", { filter: pkOr("E00701", "E00702"), sort: "employee_id" });
  const before = await apiRecord("E00701");
  await page.getByRole("button", { name: "Open Record E00701" }).click();
  await expect(page).toHaveURL(/record=E00701/);
  const panel = page.getByRole("complementary").filter({ hasText: "Record E00701" });
  await expect(panel).toBeVisible();
  await panel.locator("#rp-city").fill("PanelTown");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect.poll(async () => (await apiRecord("E00701")).city).toBe("PanelTown");
  const after = await apiRecord("E00701");
  expect({ ...after, city: before.city }).toEqual(before); // nothing else changed

  // Next Record, then the URL alone opens it (a reload).
  await panel.getByRole("button", { name: "Next Record" }).click();
  await expect(page).toHaveURL(/record=E00702/);
  await page.reload();
  await expect(page.getByRole("complementary").filter({ hasText: "Record E00702" })).toBeVisible();

  // Escape closes it; Shift+Enter and Space on a cell open it.
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/record=/);
  await cell(page, 2, "city").click();
  await page.keyboard.press("Shift+Enter");
  await expect(page).toHaveURL(/record=E00701/);
  await page.keyboard.press("Escape");
  await cell(page, 3, "city").click();
  await page.keyboard.press(" ");
  await expect(page).toHaveURL(/record=E00702/);

  // Changed elsewhere while the person types: the panel's save is refused as a conflict (even
  // though the live event has shown the new value meanwhile), the other value kept.
  const panel2 = page.getByRole("complementary").filter({ hasText: "Record E00702" });
  await panel2.locator("#rp-city").fill("MineTown");
  await apiUpdate("employees", { values: [{ key: "city", value: "ElsewhereTown" }], filter: byPk("E00702") });
  await expect(panel2.getByRole("status")).toContainText("city is now ElsewhereTown. Your unsaved edits are kept");
  await panel2.getByRole("button", { name: "Save" }).click();
  await expect(panel2.getByRole("alert").first()).toContainText("Changed elsewhere");
  expect((await apiRecord("E00702")).city).toBe("ElsewhereTown");
  // What was typed stays in its Field (not only in the toast): Save again overwrites.
  await expect(panel2.locator("#rp-city")).toHaveValue("MineTown");
  await expect(panel2.getByRole("alert").first()).toContainText("it is kept here: Save again to overwrite");
  await panel2.getByRole("button", { name: "Save" }).click();
  await expect.poll(async () => (await apiRecord("E00702")).city).toBe("MineTown");
});

test("record panel: leaving unsaved edits asks first (Esc, ×, Alt+↓); a Record left by its row's button keeps them for the return", async ({ page }) => {
  await openView(page, "employees", { filter: pkOr("E00711", "E00712", "E00713"), sort: "employee_id" });
  const before = await apiRecord("E00711");
  await page.getByRole("button", { name: "Open Record E00711" }).click();
  const panel = page.getByRole("complementary").filter({ hasText: "Record E00711" });
  await panel.locator("#rp-city").fill("Typed Not Saved");
  // Esc: asked, "Keep editing" has the focus; Esc again (or Keep editing) keeps the edit.
  await page.keyboard.press("Escape");
  const guard = panel.getByRole("alertdialog");
  await expect(guard).toContainText("Unsaved change to city. Save before you close the panel?");
  await expect(guard.getByRole("button", { name: "Keep editing" })).toBeFocused();
  await page.screenshot({ path: "test-results/shots/panel-leave-guard.png" });
  await page.keyboard.press("Escape");
  await expect(guard).toBeHidden();
  await expect(panel.locator("#rp-city")).toHaveValue("Typed Not Saved");
  // Back in the Field being edited, not on the page.
  await expect(panel.locator("#rp-city")).toBeFocused();
  await expect(page).toHaveURL(/record=E00711/);
  // Alt+↓: asked; Discard goes on to the next Record, nothing saved.
  await page.keyboard.press("Alt+ArrowDown");
  await expect(guard).toContainText("Save before you go to the next Record?");
  await guard.getByRole("button", { name: "Discard" }).click();
  await expect(page).toHaveURL(/record=E00712/);
  expect(await apiRecord("E00711")).toEqual(before);
  // ×: asked; Save saves, then closes.
  const panel2 = page.getByRole("complementary").filter({ hasText: "Record E00712" });
  await panel2.locator("#rp-city").fill("Saved On Close");
  await panel2.getByRole("button", { name: "Close the Record panel" }).click();
  await panel2.getByRole("alertdialog").getByRole("button", { name: "Save" }).click();
  await expect(page).not.toHaveURL(/record=/);
  await expect.poll(async () => (await apiRecord("E00712")).city).toBe("Saved On Close");
  // Another Record opened from its row while edits are unsaved: they are there on the return.
  await page.getByRole("button", { name: "Open Record E00711" }).click();
  await page.getByRole("complementary").filter({ hasText: "Record E00711" }).locator("#rp-city").fill("Kept For Return");
  await page.getByRole("button", { name: "Open Record E00713" }).click();
  await expect(page).toHaveURL(/record=E00713/);
  await page.getByRole("button", { name: "Open Record E00711" }).click();
  await expect(page.getByRole("complementary").filter({ hasText: "Record E00711" }).locator("#rp-city")).toHaveValue("Kept For Return");
  expect(await apiRecord("E00711")).toEqual(before);
});

test("closing the record panel after Next puts the cursor on the Record last shown, not the one it was opened from", async ({ page }) => {
  await openView(page, "employees", { filter: pkOr("E00703", "E00704", "E00705"), sort: "employee_id" });
  await cell(page, 2, "city").click();
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/record=E00703/);
  await page.getByRole("button", { name: "Next Record" }).click();
  await page.getByRole("button", { name: "Next Record" }).click();
  await expect(page).toHaveURL(/record=E00705/);
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/record=/);
  await expect(page.locator(":focus")).toHaveAttribute("data-col", "city");
  await expect(page.locator('[role=row]:has(:focus) [data-col="employee_id"]')).toHaveText("E00705");
});

test("record panel: joined Fields are read-only", async ({ page }) => {
  const join = "departments:department=department";
  await openView(page, "employees", { filter: byPk("E00703"), join, record: "E00703" });
  const panel = page.getByRole("complementary").filter({ hasText: "Record E00703" });
  await expect(panel.getByText("joined, read-only").first()).toBeVisible();
  await expect(panel.locator("#rp-departments_head")).not.toHaveJSProperty("tagName", "INPUT");
});

test("record panel: editors by type (a bad number refused), the large editor for json, the image previewed", async ({ page }) => {
  const bySku = { and: [{ key: "sku", operator: "equal", value: "SKU-007" }] };
  const before = (await apiQuery("catalog", { filter: bySku })).items[0];
  await openView(page, "catalog", { record: "SKU-007" });
  const panel = page.getByRole("complementary").filter({ hasText: "Record SKU-007" });
  await expect(panel).toBeVisible();
  // The image Field shows its picture (a thumbnail that really loaded), the boolean a select.
  const img = panel.getByRole("img", { name: String(before.image) });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect(panel.locator("#rp-in_stock")).toHaveJSProperty("tagName", "SELECT");

  // A number that is not one: shown on the Field, nothing sent.
  await panel.locator("#rp-price").fill("cheap");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect(panel.getByRole("alert").first()).toBeVisible();
  expect((await apiQuery("catalog", { filter: bySku })).items[0]).toEqual(before);

  // json in the large editor, then both saved.
  await panel.locator("#rp-price").fill("81.5");
  await panel.getByRole("button", { name: "Open specs in the large editor" }).click();
  const editor = page.getByRole("dialog").getByLabel("specs (large editor)");
  await editor.fill('{"material":"oak","legs":4}');
  await page.getByRole("dialog").getByRole("button", { name: "Format JSON" }).click();
  await expect(editor).toHaveValue(/\n {2}"material": "oak"/);
  await page.getByRole("dialog").getByRole("button", { name: "Keep" }).click();
  await panel.getByRole("button", { name: "Save" }).click();
  await expect.poll(async () => (await apiQuery("catalog", { filter: bySku })).items[0]).toEqual({ ...before, price: 81.5, specs: { material: "oak", legs: 4 } });
});

test("the tools' chunk is not on the first screen; the first click in the grid fetches it, before any paste", async ({ page }) => {
  const chunks: string[] = [];
  page.on("request", (r) => {
    if (/RecordsOverlays-[^/]*\.js$/.test(r.url())) chunks.push(r.url());
  });
  await openView(page, "employees");
  await page.waitForLoadState("networkidle");
  expect(chunks).toEqual([]);
  await cell(page, 2, "city").click();
  await expect.poll(() => chunks.length).toBe(1);
});

test("copy a range as TSV (numbers unformatted) and a row as JSON from the context menu", async ({ page }) => {
  await openView(page, "employees", { filter: pkOr("E00711", "E00712"), sort: "employee_id" });
  const [a, b] = (await apiQuery("employees", { filter: pkOr("E00711", "E00712"), sort: bySort("employee_id") })).items;
  await cell(page, 2, "annual_salary").click();
  await page.keyboard.press("Shift+ArrowRight");
  await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("Control+c");
  await expect.poll(() => clipboard(page)).toBe(`${a.annual_salary}\t${a.bonus}\n${b.annual_salary}\t${b.bonus}`);

  // Shift+click grows a range too.
  await cell(page, 2, "city").click();
  await cell(page, 3, "city").click({ modifiers: ["Shift"] });
  await page.keyboard.press("Control+c");
  await expect.poll(() => clipboard(page)).toBe(`${a.city}\n${b.city}`);

  await cell(page, 3, "city").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Copy row as JSON" }).click();
  await expect.poll(async () => JSON.parse(await clipboard(page)).employee_id).toBe("E00712");
  expect(JSON.parse(await clipboard(page))).toMatchObject({ employee_id: "E00712", city: b.city, age: b.age });
});

test("paste TSV: preview with type checks, one conflict-checked update per Record, undo as one step, refusals", async ({ page }) => {
  const pks = ["E00721", "E00722", "E00723"];
  await openView(page, "employees", { filter: pkOr(...pks), sort: "employee_id" });
  const before = (await apiQuery("employees", { filter: pkOr(...pks), sort: bySort("employee_id") })).items;

  // A wrong type is shown and cannot be applied.
  await cell(page, 2, "age").click();
  await paste(page, "41\nforty");
  const dialog = page.getByRole("dialog", { name: "Paste: review the changes" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("paste-summary")).toContainText("1 cell cannot be written");
  await expect(dialog.getByRole("button", { name: "Apply all" })).toBeDisabled();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // Past the end of the page: refused with a message, nothing sent.
  await paste(page, "1\n2\n3\n4");
  await expect(page.getByRole("dialog").getByRole("alert")).toContainText("left on this page");
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).last().click();

  // A good block: city and country of two Records; a third Record changed elsewhere is a conflict.
  await cell(page, 2, "country").click();
  await paste(page, "Pasteland\tPastetown\nPasteland\tPastetown\nPasteland\tPastetown\n");
  await expect(dialog.getByTestId("paste-summary")).toContainText("6 values to change in 3 Records");
  await expect(dialog).toContainText(`${before[0].city}`);
  await apiUpdate("employees", { values: [{ key: "city", value: "Elsewhere" }], filter: byPk("E00723") });
  await dialog.getByRole("button", { name: "Update 3 Records" }).click();
  const outcome = page.getByTestId("paste-outcome");
  await expect(outcome).toContainText("2 Records updated (4 values)");
  await expect(outcome).toContainText("E00723");
  const after = (await apiQuery("employees", { filter: pkOr(...pks), sort: bySort("employee_id") })).items;
  expect(after.map((r) => [r.country, r.city])).toEqual([
    ["Pasteland", "Pastetown"],
    ["Pasteland", "Pastetown"],
    [before[2].country, "Elsewhere"],
  ]);
  expect(after[0].age).toBe(before[0].age);
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).last().click();

  // Undo takes back exactly the paste, as one step.
  await page.keyboard.press("Control+z");
  await expect.poll(async () => (await apiQuery("employees", { filter: pkOr(...pks), sort: bySort("employee_id") })).items.map((r) => [r.country, r.city])).toEqual([
    [before[0].country, before[0].city],
    [before[1].country, before[1].city],
    [before[2].country, "Elsewhere"],
  ]);

  // The primary key column is read-only: refused.
  await cell(page, 2, "employee_id").click();
  await paste(page, "X1");
  await expect(page.getByRole("dialog").getByRole("alert")).toContainText(/read-only/);
});

test("Ctrl+V after a mouse click on a cell opens the paste preview (the event lands on the cell's text)", async ({ page }) => {
  await openView(page, "employees", { filter: pkOr("E00731"), sort: "employee_id" });
  await page.evaluate(() => navigator.clipboard.writeText("77"));
  await cell(page, 2, "age").click();
  await page.keyboard.press("Control+v");
  const dialog = page.getByRole("dialog", { name: "Paste: review the changes" });
  await expect(dialog.getByTestId("paste-summary")).toContainText("1 value to change in 1 Record");
  await dialog.getByRole("button", { name: "Cancel" }).click();
});

test("export the view to CSV and JSON, and the selection, compared with the API", async ({ page }) => {
  // No file picker in a test browser: the Blob download path.
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  const filter = { and: [{ key: "department", operator: "equal", value: "Finance" }] };
  // One name a spreadsheet would run as a formula (review 36b #2); put back at the end.
  const first = (await apiQuery("employees", { filter, sort: bySort("employee_id"), limit: 1 })).items[0];
  await apiUpdate("employees", { values: [{ key: "full_name", value: "=1+1" }], filter: byPk(first.employee_id as string) });
  await openView(page, "employees", { filter, sort: "employee_id", cols: "employee_id,full_name,age,annual_salary" });
  const truth = await apiQuery("employees", { filter, sort: bySort("employee_id"), select: ["employee_id", "full_name", "age", "annual_salary"], limit: 10000 });
  expect(truth.count).toBeGreaterThan(50);

  await page.getByRole("button", { name: "Export…" }).click();
  const dialog = page.getByRole("dialog", { name: "Export Records" });
  await dialog.getByLabel("CSV").check();
  const [csv] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Export" }).click()]);
  expect(csv.suggestedFilename()).toMatch(/employees.*\.csv$/);
  const bytes = await readFile(await csv.path());
  // A UTF-8 byte-order mark first, by default (issue 24 item 5), so Excel reads accents right.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").trim().split(/\r?\n/);
  expect(lines[0]).toBe("employee_id,full_name,age,annual_salary");
  expect(lines.length - 1).toBe(truth.count);
  expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(truth.items.map((r) => r.employee_id));
  // By default a text that would run as a formula is written after a '.
  expect(lines[1].split(",")[1]).toBe("'=1+1");

  // Without the mark, and exactly as stored, when unticked.
  await page.getByRole("button", { name: "Export…" }).click();
  await dialog.getByLabel(/byte-order mark/).uncheck();
  await dialog.getByLabel(/Keep texts from running as spreadsheet formulas/).uncheck();
  const [plain] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Export" }).click()]);
  const plainText = await readFile(await plain.path(), "utf8");
  expect(plainText.startsWith("employee_id,")).toBe(true);
  expect(plainText.split(/\r?\n/)[1].split(",")[1]).toBe("=1+1");

  await page.getByRole("button", { name: "Export…" }).click();
  await dialog.getByLabel("JSON").check();
  const [json] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Export" }).click()]);
  expect(JSON.parse(await readFile(await json.path(), "utf8"))).toEqual(truth.items);

  // The selection only.
  await page.getByRole("checkbox", { name: `Select row ${truth.items[1].employee_id}` }).click();
  await page.getByRole("checkbox", { name: `Select row ${truth.items[3].employee_id}` }).click();
  await page.getByRole("button", { name: "Export…" }).click();
  await expect(dialog.getByLabel(/The selected Records \(2\)/)).toBeChecked();
  await dialog.getByLabel("JSON").check();
  const [sel] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Export" }).click()]);
  expect(JSON.parse(await readFile(await sel.path(), "utf8"))).toEqual([truth.items[1], truth.items[3]]);
  await apiUpdate("employees", { values: [{ key: "full_name", value: first.full_name }], filter: byPk(first.employee_id as string) });
});

test("export keeps the join; a cancelled export saves nothing", async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  const join = "departments:department=department";
  const filter = { and: [{ key: "department", operator: "equal", value: "Legal" }] };
  await openView(page, "employees", { filter, sort: "employee_id", join });
  const truth = await apiQuery("employees", {
    filter,
    sort: bySort("employee_id"),
    join: [{ targetTable: "departments", rules: [{ tableKey: "department", targetTableKey: "department" }] }],
    limit: 10000,
  });
  expect(truth.count).toBeGreaterThan(0);
  const dialog = page.getByRole("dialog", { name: "Export Records" });
  await page.getByRole("button", { name: "Export…" }).click();
  await dialog.getByLabel("JSON").check();
  const [json] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Export" }).click()]);
  const rows = JSON.parse(await readFile(await json.path(), "utf8")) as Record<string, unknown>[];
  expect(rows).toEqual(truth.items);
  // The joined Fields are in the file (more keys than the employees table alone has).
  expect(Object.keys(rows[0]).length).toBeGreaterThan(15);

  // Cancel while the first page is on its way: no download, the dialog is usable again.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/api/v0/record/demo/employees/query", async (route) => {
    if ((route.request().postData() ?? "").includes('"limit":5000')) await held;
    await route.continue().catch(() => undefined);
  });
  let downloads = 0;
  page.on("download", () => downloads++);
  await page.getByRole("button", { name: "Export…" }).click();
  await dialog.getByRole("button", { name: "Export" }).click();
  await expect(dialog.getByTestId("export-progress")).toContainText(`0 of ${truth.count}`);
  // While it runs the focus is in the dialog (its format, in a disabled group, cannot take it: review 35b #1).
  await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest("dialog[open]"))).toBe(true);
  await dialog.getByRole("button", { name: "Cancel export" }).click();
  await expect(page.getByText("Export cancelled")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Export" })).toBeEnabled();
  release();
  await page.waitForTimeout(1000);
  expect(downloads).toBe(0);
  await page.unrouteAll({ behavior: "ignoreErrors" });
});

test("context menu: filter by / exclude this value, copy, open the Record; header menu by keyboard sorts, hides and filters on the Field", async ({ page }) => {
  await openView(page, "employees", { sort: "employee_id" });
  const dept = (await cell(page, 2, "department").textContent())!;
  await cell(page, 2, "department").click({ button: "right" });
  await page.getByRole("menuitem", { name: /^Filter by this value/ }).click();
  await expect(page).toHaveURL(/filter=/);
  const keep = { and: [{ key: "department", operator: "equal", value: dept }] };
  const expected = (await apiQuery("employees", { filter: keep, limit: 0 })).count;
  await expect(page.getByText(new RegExp(`${expected.toLocaleString("en-US")} Records?`)).first()).toBeVisible();

  // Exclude on another column, by keyboard (Shift+F10), adds to the same filter.
  const city = (await cell(page, 2, "city").textContent())!;
  await cell(page, 2, "city").click();
  await page.keyboard.press("Shift+F10");
  await expect(page.getByRole("menu", { name: "Cell actions" })).toBeVisible();
  await page.getByRole("menuitem", { name: /^Exclude this value/ }).focus();
  await page.keyboard.press("Enter");
  const both = { and: [...keep.and, { key: "city", operator: "notEqual", value: city }] };
  const n = (await apiQuery("employees", { filter: both, limit: 0 })).count;
  await expect(page.getByText(new RegExp(`${n.toLocaleString("en-US")} Records?`)).first()).toBeVisible();
  for (const c of await page.locator('[role=grid] [data-col="city"][role=gridcell]').allTextContents()) expect(c).not.toBe(city);

  // Open the Record from the menu.
  const pk = (await cell(page, 2, "employee_id").textContent())!;
  await cell(page, 2, "age").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Open the Record" }).click();
  await expect(page).toHaveURL(new RegExp(`record=${pk}`));
  // Esc once the panel has the focus (pressed before, under load, it closed nothing and the
  // panel then covered the age column).
  const panel = page.locator(".record-panel");
  await expect(panel.locator("#rp-title")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);

  // Header menu from the keyboard: sort descending by age, then hide the column.
  await page.getByRole("columnheader", { name: /^age/ }).getByRole("button").first().focus();
  await page.keyboard.press("Shift+F10");
  await page.getByRole("menuitem", { name: "Sort descending by age" }).click();
  await expect(page).toHaveURL(/sort=-age/);
  await page.getByRole("columnheader", { name: /^age/ }).click({ button: "right" });
  await page.getByRole("menuitem", { name: "Hide this column" }).click();
  await expect(page.getByRole("columnheader", { name: /^age/ })).toHaveCount(0);

  // Copy from the cell menu.
  const title = (await cell(page, 2, "job_title").textContent())!;
  await cell(page, 2, "job_title").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Copy", exact: true }).click();
  await expect.poll(() => clipboard(page)).toBe(title);

  // "Filter on this Field" from a header: a new condition on it, its value focused; Apply adds it.
  await page.getByRole("columnheader", { name: /^job_title/ }).click({ button: "right" });
  await page.getByRole("menuitem", { name: "Filter on job_title…" }).click();
  const value = page.getByLabel("Condition 3 value", { exact: true });
  await expect(value).toBeFocused();
  await page.keyboard.type(title);
  await page.getByRole("button", { name: "Apply filter" }).click();
  const three = { and: [...both.and, { key: "job_title", operator: "equal", value: title }] };
  const m = (await apiQuery("employees", { filter: three, limit: 0 })).count;
  await expect(page.getByTestId("total-count")).toHaveText(new RegExp(`^${m.toLocaleString("en-US")} Records? match`));
  for (const c of await page.locator('[role=grid] [data-col="job_title"][role=gridcell]').allTextContents()) expect(c).toBe(title);
});

test("columns resize by keyboard and drag, widths kept per table; the key column stays on the left", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openView(page, "employees");
  const head = page.getByRole("columnheader", { name: /^city/ });
  const w0 = (await head.boundingBox())!.width;
  // From the keyboard: the header row is one tab stop; Alt+→ on a column's header widens it.
  await head.getByRole("button").focus();
  await page.keyboard.press("Alt+ArrowRight");
  await page.keyboard.press("Alt+ArrowRight");
  await expect.poll(async () => Math.round((await head.boundingBox())!.width)).toBe(Math.round(w0 + 20));
  // Dragging the same edge 60 px further right.
  const hb = (await page.getByRole("separator", { name: "Resize column city" }).boundingBox())!;
  await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
  await page.mouse.down();
  await page.mouse.move(hb.x + hb.width / 2 + 60, hb.y + hb.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await head.boundingBox())!.width)).toBe(Math.round(w0 + 80));
  await page.reload();
  await expect.poll(async () => Math.round((await page.getByRole("columnheader", { name: /^city/ }).boundingBox())!.width)).toBe(Math.round(w0 + 80));
  // Kept when coming back from another table.
  await openView(page, "departments");
  await openView(page, "employees");
  await expect.poll(async () => Math.round((await page.getByRole("columnheader", { name: /^city/ }).boundingBox())!.width)).toBe(Math.round(w0 + 80));

  // Sideways scroll: the primary key column does not move.
  const pkCell = cell(page, 2, "employee_id");
  const x0 = (await pkCell.boundingBox())!.x;
  await page.locator("[role=grid]").evaluate((g) => {
    g.scrollLeft = 600;
  });
  await expect.poll(async () => Math.round((await pkCell.boundingBox())!.x)).toBe(Math.round(x0));
  expect(await page.locator("[role=grid]").evaluate((g) => g.scrollLeft)).toBeGreaterThan(0);
});

test("an edit under a sort keeps the row in place; save and move down lands on the Record that was below", async ({ page }) => {
  const pks = ["E00731", "E00732", "E00733", "E00734"];
  for (const [i, pk] of pks.entries()) await apiUpdate("employees", { values: [{ key: "age", value: 20 + i }], filter: byPk(pk) });
  await openView(page, "employees", { filter: pkOr(...pks), sort: "age" });
  await expect(cell(page, 2, "employee_id")).toHaveText("E00731");
  await cell(page, 2, "age").dblclick();
  await page.getByLabel("Edit age").fill("70");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await apiRecord("E00731")).age).toBe(70);
  await expect(cell(page, 2, "employee_id")).toHaveText("E00731");
  await expect(cell(page, 3, "age")).toBeFocused();
  await expect(cell(page, 3, "employee_id")).toHaveText("E00732");
  // A second edit there goes to the Record that was below it, as shown.
  await page.keyboard.press("Enter");
  await page.getByLabel("Edit age").fill("71");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await apiRecord("E00732")).age).toBe(71);
  expect((await apiRecord("E00733")).age).toBe(22);
  // Refresh re-sorts.
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(cell(page, 2, "employee_id")).toHaveText("E00733");
});

test("saved views: save, listed under the table, open, rename, share as URL, export/import JSON, delete; columns, join and widths restored", async ({ page }) => {
  const filter = { and: [{ key: "department", operator: "equal", value: "Sales" }] };
  await openView(page, "employees", { filter, sort: "age", size: 100 });
  await page.getByRole("button", { name: "Views ▾" }).click();
  await page.getByRole("menuitem", { name: "Save this view…" }).click();
  await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Sales by age");
  await page.getByRole("button", { name: "Save view" }).click();
  const link = page.getByRole("navigation").getByRole("link", { name: "Sales by age" });
  await expect(link).toBeVisible();

  await openView(page, "departments");
  await link.click();
  await expect(page).toHaveURL(/\/records\/demo\/employees\?.*filter=/);
  await expect(page).toHaveURL(/size=100/);
  const n = (await apiQuery("employees", { filter, limit: 0 })).count;
  await expect(page.getByText(new RegExp(`${n.toLocaleString("en-US")} Records?`)).first()).toBeVisible();
  // The open view's link in the sidebar is readable (review 50b #2: 4.3:1 at 12 px).
  await expect(link).toHaveAttribute("aria-current", "page");
  expect(await seriousViolations(page)).toEqual([]);

  // Still there after a reload (localStorage).
  await page.reload();
  await expect(link).toBeVisible();

  await page.getByRole("button", { name: "Views ▾" }).click();
  await page.getByRole("menuitem", { name: /Manage saved views/ }).click();
  const dialog = page.getByRole("dialog", { name: "Saved views of employees" });
  // No name: refused with why, the name it had put back (review 53b #3: the box stayed empty, unsaid).
  await dialog.getByLabel("Name of view Sales by age").fill("");
  await dialog.getByLabel("Name of view Sales by age").press("Enter");
  await expect(dialog.getByRole("alert")).toHaveText("A view needs a name: “Sales by age” is kept.");
  await expect(dialog.getByLabel("Name of view Sales by age")).toHaveValue("Sales by age");
  await dialog.getByLabel("Name of view Sales by age").fill("Sales, youngest first");
  await dialog.getByLabel("Name of view Sales by age").press("Enter");
  await expect(page.getByRole("navigation").getByRole("link", { name: "Sales, youngest first" })).toBeVisible();
  await dialog.getByRole("button", { name: "Copy link" }).first().click();
  const url = await clipboard(page);
  expect(url).toMatch(/\/records\/demo\/employees\?.*filter=/);
  const [file] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: /Export/ }).click()]);
  const exported = JSON.parse(await readFile(await file.path(), "utf8"));
  expect(exported.views.map((v: { name: string }) => v.name)).toEqual(["Sales, youngest first"]);
  await dialog.getByRole("button", { name: "Delete view Sales, youngest first" }).click();
  await expect(page.getByRole("navigation").getByRole("link", { name: "Sales, youngest first" })).toHaveCount(0);
  // The focus stays in the dialog (the last view gone: on Done), and the toast can undo it.
  await expect(dialog.getByRole("button", { name: "Done" })).toBeFocused();
  await page.getByRole("status").filter({ hasText: "Deleted the view “Sales, youngest first”" }).getByRole("button", { name: "Undo" }).click();
  await expect(page.getByRole("navigation").getByRole("link", { name: "Sales, youngest first" })).toBeVisible();
  await dialog.getByRole("button", { name: "Delete view Sales, youngest first" }).click();
  await expect(page.getByRole("navigation").getByRole("link", { name: "Sales, youngest first" })).toHaveCount(0);
  // With a view of a table this Baseboard does not have: that one is said and left out.
  const withGhost = { ...exported, views: [...exported.views, { ...exported.views[0], id: "ghost-1", name: "Ghostly", table: "ghost" }] };
  // Reached with the keyboard: Tab to "Import JSON…", Enter opens the file chooser.
  const chooser = page.waitForEvent("filechooser");
  await dialog.getByRole("button", { name: "Import JSON…" }).focus();
  await page.keyboard.press("Enter");
  await (await chooser).setFiles({ name: "views.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(withGhost)) });
  await expect(page.getByRole("navigation").getByRole("link", { name: "Sales, youngest first" })).toBeVisible();
  await expect(page.getByText("“Ghostly” is a view of demo/ghost, which is not a table here: not imported.")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("baseboard.views.v1"))).not.toContain("Ghostly");

  // The shared URL opens the same view.
  await page.goto(url);
  await expect(page.getByText(new RegExp(`${n.toLocaleString("en-US")} Records?`)).first()).toBeVisible();

  // Columns, join and widths are part of a view: saved, changed, restored when it is opened.
  const join = "departments:department=department";
  await openView(page, "employees", { cols: "employee_id,full_name,city", join });
  const width = async () => Math.round((await page.getByRole("columnheader", { name: /^city/ }).boundingBox())!.width);
  await page.getByRole("separator", { name: "Resize column city" }).focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  const saved = await width();
  await page.getByRole("button", { name: "Views ▾" }).click();
  await page.getByRole("menuitem", { name: "Save this view…" }).click();
  await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Three columns");
  await page.getByRole("button", { name: "Save view" }).click();
  await page.getByRole("separator", { name: "Resize column city" }).focus();
  for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowLeft");
  await expect.poll(width).toBe(saved - 60);
  await openView(page, "departments");
  await page.getByRole("navigation").getByRole("link", { name: "Three columns" }).click();
  await expect(page).toHaveURL(/cols=employee_id%2Cfull_name%2Ccity/);
  await expect(page).toHaveURL(/join=departments/);
  await expect(page.getByRole("columnheader")).toHaveText([/^$/, /^employee_id/, /^full_name/, /^city/]);
  await expect.poll(width).toBe(saved);
});

test("bulk update changes only the confirmed Records, even if more match by then; undo covers exactly those", async ({ page }) => {
  const pks = ["E00741", "E00742", "E00743"];
  const before = Object.fromEntries(await Promise.all(pks.map(async (pk) => [pk, await apiRecord(pk)] as const)));
  await apiUpdate("employees", { values: [{ key: "city", value: "BulkTown" }], filter: pkOr("E00741", "E00742") });
  const filter = { and: [{ key: "city", operator: "equal", value: "BulkTown" }] };
  await openView(page, "employees", { filter });
  await page.getByRole("button", { name: "Update matching…" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Field 1", { exact: true }).selectOption("job_title");
  await dialog.getByLabel("Value 1", { exact: true }).fill("Bulk Title");
  await dialog.getByRole("button", { name: "Review" }).click();
  await expect(dialog.getByTestId("bulk-confirm")).toContainText("This will change 2 Records");
  // The focus is on Back (it fell to the page, where three Tabs reached the update).
  await expect(dialog.getByRole("button", { name: "Back" })).toBeFocused();
  // A third Record starts matching after the user confirmed the count; and someone changes one
  // of the two meanwhile.
  await apiUpdate("employees", { values: [{ key: "city", value: "BulkTown" }], filter: byPk("E00743") });
  await apiUpdate("employees", { values: [{ key: "job_title", value: "Changed Meanwhile" }], filter: byPk("E00742") });
  await dialog.getByRole("button", { name: "Update 2 Records" }).click();
  await expect.poll(async () => (await apiRecord("E00741")).job_title).toBe("Bulk Title");
  expect((await apiRecord("E00742")).job_title).toBe("Bulk Title");
  expect((await apiRecord("E00743")).job_title).toBe(before.E00743.job_title);

  // The Undo button on the success toast (issue 24 item 7) undoes exactly this update, giving back
  // what each Record held just before it (E00742: the change made meanwhile, not the reviewed value).
  await page.getByRole("region", { name: "Notifications" }).getByRole("button", { name: "Undo" }).click();
  // The undo writes Record by Record: wait for all of them, not just the first.
  const titles = () => Promise.all(pks.map(async (pk) => (await apiRecord(pk)).job_title));
  await expect.poll(titles).toEqual([before.E00741.job_title, "Changed Meanwhile", before.E00743.job_title]);
});

test("a CSV dragged over the grid shows where to drop it, and dropping it opens the import preview", async ({ page }) => {
  await openView(page, "employees", { filter: pkOr("E00761") });
  const area = page.locator(".grid-area");
  const dt = await page.evaluateHandle(() => {
    const d = new DataTransfer();
    d.items.add(new File(["employee_id,city\nE00761,DropTown\n"], "dropped.csv", { type: "text/csv" }));
    return d;
  });
  const hint = () => area.evaluate((el) => getComputedStyle(el, "::after").content);
  expect(await hint()).toBe("none");
  await area.dispatchEvent("dragover", { dataTransfer: dt });
  await expect.poll(hint).toContain("Drop the CSV");
  await area.dispatchEvent("drop", { dataTransfer: dt });
  await expect.poll(hint).toBe("none");
  const dialog = page.getByRole("dialog", { name: "Import dropped.csv" });
  await expect(dialog.getByTestId("import-summary")).toContainText("1 Record to update");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  expect((await apiRecord("E00761")).city).not.toBe("DropTown");
});

test("import a CSV: preview like paste, then update-or-insert by primary key, all or nothing", async ({ page }) => {
  await openView(page, "employees", { filter: pkOr("E00751", "E00752", "X99901") });
  const before = await apiRecord("E00752");
  const csv = "employee_id,city,age\nE00751,ImportTown,33\nE00752,,\nX99901,NewTown,40\n";
  await page.getByTestId("import-input").setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  const dialog = page.getByRole("dialog", { name: "Import people.csv" });
  await expect(dialog.getByTestId("import-summary")).toContainText("3 rows: 1 new Record, 2 Records to update");
  await expect(dialog).toContainText("ImportTown");
  await dialog.getByRole("button", { name: "Import 3 rows" }).click();
  await expect(dialog.getByTestId("import-outcome")).toContainText("1 Record added, 2 changed");
  const a = await apiRecord("E00751");
  expect([a.city, a.age]).toEqual(["ImportTown", 33]);
  const b = await apiRecord("E00752");
  expect([b.city, b.age, b.full_name]).toEqual([null, null, before.full_name]);
  const x = (await apiQuery("employees", { filter: { and: [{ key: "employee_id", operator: "equal", value: "X99901" }] } })).items[0];
  expect([x.city, x.age]).toEqual(["NewTown", 40]);
  await dialog.getByRole("button", { name: "Close" }).last().click();

  // A bad cell: shown by line, nothing sent.
  await page.getByTestId("import-input").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("employee_id,age\nE00751,50\nE00752,old\n") });
  const bad = page.getByRole("dialog", { name: "Import bad.csv" });
  await expect(bad).toContainText("line 3:");
  await expect(bad.getByTestId("import-summary")).toContainText("2 rows; 1 line without a problem: 1 Record to update.");
  await expect(bad.getByRole("button", { name: /^Import/ })).toBeDisabled();
  // The bad cell's Record as it is now, beside what the file says.
  const badRow = bad.getByRole("row").filter({ hasText: "E00752" });
  await expect(badRow).toContainText("old");
  await expect(badRow).not.toContainText("—");
  // The red row's message is readable (contrast) and the scrolling list is reachable by keyboard.
  expect(await seriousViolations(page, ".import-dialog")).toEqual([]);
  expect((await apiRecord("E00751")).age).toBe(33);
  await bad.getByRole("button", { name: "Cancel" }).click();

  // Every line bad: said so, and no "skip and import the rest" (there is no rest).
  await page.getByTestId("import-input").setInputFiles({ name: "allbad.csv", mimeType: "text/csv", buffer: Buffer.from("employee_id,age\nX99911,old\nX99912,older\n") });
  const allBad = page.getByRole("dialog", { name: "Import allbad.csv" });
  await expect(allBad.getByTestId("import-summary")).toHaveText("2 rows, none of which can be imported: 2 cells cannot be written (in red). Fix the file and import it again.");
  await expect(allBad.getByRole("button", { name: /^Skip/ })).toHaveCount(0);
  await allBad.getByRole("button", { name: "Cancel" }).click();

  // Dropped on the grid: the same preview; cancelled, nothing changes.
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(["employee_id,city\nE00751,DropTown\n"], "dropped.csv", { type: "text/csv" }));
    const area = document.querySelector(".grid-area")!;
    for (const type of ["dragenter", "dragover", "drop"]) area.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  const dropped = page.getByRole("dialog", { name: "Import dropped.csv" });
  await expect(dropped.getByTestId("import-summary")).toContainText("1 row: 1 Record to update");
  await expect(dropped).toContainText("DropTown");
  await dropped.getByRole("button", { name: "Cancel" }).click();
  expect((await apiRecord("E00751")).city).toBe("ImportTown");
});

test("undo of an import that added 3,500 Records takes them all back, 1,000 a request, saying it works meanwhile", async ({ page }) => {
  const keys = Array.from({ length: 3_500 }, (_, i) => `UNDO${String(i).padStart(5, "0")}`);
  const range = { and: [{ key: "employee_id", operator: "startsWith", value: "UNDO" }] };
  // With one Record that is there already, so the grid shows before the import.
  await openView(page, "employees", { filter: { or: [...range.and, { key: "employee_id", operator: "equal", value: "E00760" }] } });
  const csv = `employee_id,full_name\n${keys.map((k) => `${k},Imported ${k}`).join("\n")}\n`;
  await page.getByTestId("import-input").setInputFiles({ name: "many.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  const dialog = page.getByRole("dialog", { name: "Import many.csv" });
  await dialog.getByRole("button", { name: /^Import 3,500 rows/ }).click();
  await expect(dialog.getByTestId("import-outcome")).toContainText("3,500 Records added");
  await dialog.getByRole("button", { name: "Close" }).last().click();
  expect((await apiQuery("employees", { filter: range, limit: 0 })).count).toBe(3_500);
  const deletes: number[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/employees/delete")) deletes.push((JSON.parse(r.postData() ?? "{}") as { expectedCount: number }).expectedCount);
  });
  await page.getByRole("grid").focus();
  await page.keyboard.press("Control+z");
  await expect(page.getByRole("status").filter({ hasText: 'Undoing "Import' })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Undone: 3,500 Records removed." })).toBeVisible({ timeout: 20_000 });
  expect((await apiQuery("employees", { filter: range, limit: 0 })).count).toBe(0);
  // It was one delete of 3,500 keys, refused every time ("at most 5,000 conditions" past 5,000, or "1 MiB").
  expect(deletes).toEqual([1_000, 1_000, 1_000, 500]);
  await expect(page.getByRole("status").filter({ hasText: 'Undoing "Import' })).toHaveCount(0);
});

test("a link whose sort or filter names a Field the table does not have falls back, says which, and keeps the filter in the builder", async ({ page }) => {
  const filter = { and: [{ key: "nope", operator: "equal", value: "x" }, { key: "city", operator: "equal", value: "Austin" }] };
  await page.goto(`/records/demo/employees?sort=${encodeURIComponent("nope,-age")}&filter=${encodeURIComponent(JSON.stringify(filter))}`);
  await expect(page.getByText("Unknown Field in the sort ignored: nope")).toBeVisible();
  await expect(page.getByText(/The filter was not applied: this Field is not in demo\/employees: nope/)).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get("sort")).toBe("-age");
  expect(new URL(page.url()).searchParams.get("filter")).toBeNull();
  // The default view, sorted by what was known; no refusal shown.
  const all = (await apiQuery("employees", { limit: 0 })).count;
  await expect(page.getByText(new RegExp(`${all.toLocaleString("en-US")} Records`)).first()).toBeVisible();
  await expect(page.getByText("The service refused this view")).toHaveCount(0);
  // The filter waits in the builder, its unknown Field to fix.
  const builder = page.getByRole("region", { name: "Filter builder" });
  await expect(builder).toBeVisible();
  await expect(builder.getByTestId("filter-count")).toContainText("to fix before applying");
});
