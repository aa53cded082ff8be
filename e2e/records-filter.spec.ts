/**
 * Records workspace, reading: filter builder (mouse and JSON), sorting, paging, URL state.
 * Only reads data, and compares what the grid shows with the service's own answer.
 */
import { expect, test } from "@playwright/test";
import { apiQuery, openView, shownPks } from "./testing/records";

const fmt = (n: number) => n.toLocaleString("en-US");

test("a two-level nested filter built with the mouse matches the API's rows and count", async ({ page }) => {
  await openView(page, "employees");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const builder = page.getByRole("region", { name: "Filter builder" });

  // Root (AND): department = Engineering, and a group (OR): age > 50, country = Brazil.
  await builder.getByRole("button", { name: "Filter: add condition" }).click();
  await builder.getByLabel("Condition 1 field").selectOption("department");
  await builder.getByLabel("Condition 1 value", { exact: true }).fill("Engineering");
  await builder.getByRole("button", { name: "Filter: add group" }).click();
  const group = builder.getByRole("group", { name: "Group 2" });
  await expect(group.getByRole("radio", { name: "OR" })).toHaveAttribute("aria-checked", "true");
  // The new condition is where the focus goes, to be filled in (not left on the button).
  await expect(group.getByLabel("Condition 2.1 field")).toBeFocused();
  await group.getByLabel("Condition 2.1 field").selectOption("age");
  await group.getByLabel("Condition 2.1 operator").selectOption("greaterThan");
  await group.getByLabel("Condition 2.1 value", { exact: true }).fill("50");
  await group.getByRole("button", { name: "Group 2: add condition" }).click();
  await expect(group.getByLabel("Condition 2.2 field")).toBeFocused();
  await group.getByLabel("Condition 2.2 field").selectOption("country");
  await group.getByLabel("Condition 2.2 value", { exact: true }).fill("Brazil");
  // Applied from the keyboard: the focus stays on Apply, now with nothing to apply (review 52b #3:
  // it turned disabled under the focus, which fell to the page).
  const applyButton = builder.getByRole("button", { name: "Apply filter" });
  await applyButton.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/Brazil/);
  await expect(applyButton).toHaveAttribute("aria-disabled", "true");
  await expect(applyButton).toBeFocused();

  const filter = {
    and: [
      { key: "department", operator: "equal", value: "Engineering" },
      { or: [{ key: "age", operator: "greaterThan", value: 50 }, { key: "country", operator: "equal", value: "Brazil" }] },
    ],
  };
  const api = await apiQuery("employees", { filter, limit: 50, sort: [] });
  expect(api.count).toBeGreaterThan(0);
  expect(api.count).toBeLessThan(1000);
  await expect(page.getByTestId("range")).toHaveText(`1–${Math.min(50, api.count)} of ${fmt(api.count)}`);
  await expect(builder.getByTestId("filter-count")).toHaveText(`${fmt(api.count)} matching Records`);
  const pks = await shownPks(page, 10);
  expect(pks).toEqual(api.items.slice(0, 10).map((r) => r.employee_id));
  // The URL holds exactly the filter that was sent.
  const url = new URL(page.url());
  expect(JSON.parse(url.searchParams.get("filter")!)).toEqual(filter);
});

test("pasted JSON goes into the builder; invalid JSON is refused with a message", async ({ page }) => {
  await openView(page, "employees");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const builder = page.getByRole("region", { name: "Filter builder" });
  await builder.getByRole("button", { name: "JSON" }).click();
  const box = builder.getByLabel(/Filter JSON/);

  await box.fill('{"and": [{"key": "age", "operator": "gt", "value": 3}]}');
  await builder.getByRole("button", { name: "Load JSON into builder" }).click();
  await expect(builder.getByRole("alert")).toContainText('filter.and[0]: unknown operator "gt"');
  await box.fill("{and: []}");
  await builder.getByRole("button", { name: "Load JSON into builder" }).click();
  await expect(builder.getByRole("alert")).toContainText("not valid JSON");

  const filter = { or: [{ key: "country", operator: "equal", value: "China", isFixed: true }, { and: [{ key: "age", operator: "lessThan", value: 25 }] }] };
  await box.fill(JSON.stringify(filter));
  await builder.getByRole("button", { name: "Load JSON into builder" }).click();
  await expect(builder.getByLabel("Condition 1 field")).toHaveValue("country");
  // isFixed shows as a lock: the condition cannot be edited or removed until unlocked.
  await expect(builder.getByLabel("Condition 1 value", { exact: true })).toBeDisabled();
  await expect(builder.getByRole("button", { name: "Remove Condition 1" })).toBeDisabled();
  await builder.getByRole("button", { name: "Unlock Condition 1" }).click();
  await expect(builder.getByLabel("Condition 1 value", { exact: true })).toBeEnabled();
  await builder.getByRole("button", { name: "Lock Condition 1" }).click();
  await expect(builder.getByLabel("Condition 2.1 value", { exact: true })).toHaveValue("25");
  await builder.getByRole("button", { name: "Apply filter" }).click();

  const api = await apiQuery("employees", { filter, limit: 0 });
  await expect(page.getByTestId("range")).toHaveText(`1–${Math.min(50, api.count)} of ${fmt(api.count)}`);
  expect(JSON.parse(new URL(page.url()).searchParams.get("filter")!)).toEqual(filter);
});

test("JSON pasted and applied straight away is what gets applied; invalid JSON blocks Apply", async ({ page }) => {
  await openView(page, "employees");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const builder = page.getByRole("region", { name: "Filter builder" });
  await builder.getByRole("button", { name: "JSON" }).click();
  const box = builder.getByLabel(/Filter JSON/);
  await box.fill('{"and": [{"key": "country", "operator": "equal", "value": "Brazil"');
  await page.keyboard.press("Control+Enter");
  await expect(builder.getByRole("alert")).toContainText("not valid JSON");
  await expect(page).toHaveURL(/\/records\/demo\/employees$/);

  const filter = { and: [{ key: "country", operator: "equal", value: "Brazil" }] };
  await box.fill(JSON.stringify(filter));
  await builder.getByRole("button", { name: "Apply filter" }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get("filter")).toBe(JSON.stringify(filter));
  await expect(builder.getByLabel("Condition 1 value", { exact: true })).toHaveValue("Brazil");
  const api = await apiQuery("employees", { filter, limit: 0 });
  await expect(builder.getByTestId("filter-count")).toHaveText(`${fmt(api.count)} matching Records`);
});

test("sort by two columns with shift-click, then page to the end", async ({ page }) => {
  await openView(page, "employees");
  await page.getByRole("columnheader", { name: /department/ }).getByRole("button").click();
  await page.getByRole("columnheader", { name: /^age/ }).getByRole("button").click({ modifiers: ["Shift"] });
  await page.getByRole("columnheader", { name: /^age/ }).getByRole("button").click({ modifiers: ["Shift"] });
  await expect(page).toHaveURL(/sort=department%2C-age|sort=department,-age/);
  await expect(page.getByRole("columnheader", { name: /department/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(page.getByRole("columnheader", { name: /^age/ })).toHaveAttribute("aria-sort", "descending");
  const sort = [
    { key: "department", direction: "ascending" },
    { key: "age", direction: "descending" },
  ];
  const first = await apiQuery("employees", { sort, limit: 10 });
  expect(await shownPks(page, 10)).toEqual(first.items.map((r) => r.employee_id));

  await page.getByLabel("Rows per page").selectOption("100");
  await page.getByRole("button", { name: "Last page" }).click();
  await expect(page.getByTestId("range")).toHaveText("901–1,000 of 1,000");
  // Row positions are absolute across pages; the count includes the header row and the blank
  // row after the last Record (review 52b #5).
  await expect(page.getByRole("grid")).toHaveAttribute("aria-rowcount", "1002");
  await expect(page.locator('[role=grid] [role=row][aria-rowindex="902"]')).toBeVisible();
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
  const last = await apiQuery("employees", { sort, limit: 10, skip: 900 });
  expect(await shownPks(page, 10)).toEqual(last.items.map((r) => r.employee_id));
  await page.getByRole("button", { name: "Previous page" }).click();
  await expect(page.getByTestId("range")).toHaveText("801–900 of 1,000");
  // Another page size keeps the first Record shown in view (review 55b #9: back to the first page).
  await page.getByLabel("Rows per page").selectOption("50");
  await expect(page.getByTestId("range")).toHaveText("801–850 of 1,000");
  await page.getByLabel("Rows per page").selectOption("100");
  await expect(page.getByTestId("range")).toHaveText("801–900 of 1,000");
  // By keyboard: a button that took the view to the end keeps the focus (it fell to the page
  // when it turned disabled: review 32b #2), and pressed again does nothing.
  await page.getByRole("button", { name: "Last page" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("range")).toHaveText("901–1,000 of 1,000");
  await expect(page.getByRole("button", { name: "Last page" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("range")).toHaveText("901–1,000 of 1,000");
  await page.keyboard.press("Shift+Tab");
  await expect(page.getByRole("button", { name: "Next page" })).toBeFocused();
  await page.getByRole("button", { name: "First page" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("range")).toHaveText("1–100 of 1,000");
  await expect(page.getByRole("button", { name: "First page" })).toBeFocused();
});

test("reload keeps the view; a bad link falls back with a message", async ({ page }) => {
  await openView(page, "employees", {
    filter: { and: [{ key: "gender", operator: "equal", value: "Female" }] },
    sort: "-annual_salary",
    cols: "full_name,annual_salary,gender",
    page: 2,
    size: 25,
  });
  const api = await apiQuery("employees", {
    filter: { and: [{ key: "gender", operator: "equal", value: "Female" }] },
    sort: [{ key: "annual_salary", direction: "descending" }],
    limit: 25,
    skip: 25,
  });
  const headers = page.getByRole("columnheader");
  await expect(headers).toHaveText([/^$/, /full_name/, /annual_salary/, /gender/]);
  await expect(page.getByTestId("range")).toHaveText(`26–50 of ${fmt(api.count)}`);
  await page.reload();
  await expect(headers).toHaveText([/^$/, /full_name/, /annual_salary/, /gender/]);
  await expect(page.getByTestId("range")).toHaveText(`26–50 of ${fmt(api.count)}`);
  const firstName = page.locator('[role=row][aria-rowindex="27"] [data-col="full_name"]');
  await expect(firstName).toHaveText(String(api.items[0].full_name));

  await page.goto("/records/demo/employees?page=-3&size=7&sort=%2C%2C&filter=%7Boops");
  await expect(page.getByRole("alert").or(page.getByRole("status")).filter({ hasText: "Part of this link was not understood" })).toBeVisible();
  await expect(page.getByTestId("range")).toHaveText("1–50 of 1,000");
  await expect(page).toHaveURL(/\/records\/demo\/employees$/);

  // Parts the router reads as JSON (a number, an array, an object) are dropped the same way:
  // these once reached the grid raw and crashed the page.
  const sortAsJson = encodeURIComponent(JSON.stringify([{ key: "hire_date", direction: "descending" }]));
  await page.goto(`/records/demo/employees?sort=${sortAsJson}&cols=7&join=%5B1%5D&size=%7B%7D`);
  await expect(page.getByRole("alert").or(page.getByRole("status")).filter({ hasText: "Part of this link was not understood" })).toBeVisible();
  await expect(page.getByTestId("range")).toHaveText("1–50 of 1,000");
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  await expect(page).toHaveURL(/\/records\/demo\/employees$/);
});

test("keyboard only: Enter and Shift+Enter on headers sort; focused buttons show a ring", async ({ page }) => {
  await openView(page, "employees");
  await page.getByRole("columnheader", { name: /department/ }).getByRole("button").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort=department(&|$)/);
  await page.getByRole("columnheader", { name: /^age/ }).getByRole("button").focus();
  await page.keyboard.press("Shift+Enter");
  await expect(page).toHaveURL(/sort=department%2Cage|sort=department,age/);
  // Nothing was opened for editing by those Enters.
  await expect(page.locator(".cell-editor")).toHaveCount(0);

  const ring = () => page.evaluate(() => getComputedStyle(document.activeElement!).boxShadow);
  await page.getByRole("button", { name: "Filter", exact: true }).focus();
  await page.keyboard.press("Enter");
  const builder = page.getByRole("region", { name: "Filter builder" });
  for (const name of ["Filter: add condition", "JSON"]) {
    await builder.getByRole("button", { name, exact: true }).focus();
    expect(await ring()).toContain("rgba(59, 99, 243");
  }
});

test("value inputs: a number box shows what was typed; contains on a date takes text", async ({ page }) => {
  await openView(page, "employees");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const builder = page.getByRole("region", { name: "Filter builder" });
  await builder.getByRole("button", { name: "Filter: add condition" }).click();
  // The draft's count asks only for what is on screen and valid (a stale draft with the number
  // still empty was sent, and refused with a 400).
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes("/query")) asked.push(r.postData() ?? "");
  });
  await builder.getByLabel("Condition 1 field").selectOption("age");
  const value = builder.getByLabel("Condition 1 value", { exact: true });
  await page.waitForTimeout(600); // past the count's debounce, with the value still empty
  await value.fill("45");
  await expect(builder).toContainText(/Draft matches [\d,]+ · not applied/);
  expect(asked.filter((b) => b.includes('"key":"age"') && b.includes('"value":""'))).toEqual([]);
  expect(asked.some((b) => b.includes('"value":45'))).toBe(true);
  await value.fill("4e");
  await expect(value).toHaveValue("4e");
  await expect(builder.getByRole("alert")).toHaveText('age needs a number, e.g. 42 or 3.5; "4e" is not one.');
  await value.fill("4.5");
  await expect(builder.getByRole("alert")).toHaveCount(0);
  // As the grid shows numbers (and the cell editors take them back): with thousands commas.
  await value.fill("1,000");
  await expect(builder.getByRole("alert")).toHaveCount(0);
  await expect.poll(() => asked.some((b) => b.includes('"value":1000'))).toBe(true);
  await value.fill("");
  await expect(builder.getByRole("alert")).toHaveText("Enter a number (e.g. 42 or 3.5) for age.");

  await builder.getByLabel("Condition 1 field").selectOption("hire_date");
  // A date is typed as YYYY-MM-DD (the browser's date box read typed keys in its locale's order), with a calendar beside it.
  await expect(value).toHaveAttribute("placeholder", "YYYY-MM-DD");
  await expect(builder.getByRole("button", { name: "Pick a date from a calendar" })).toBeAttached();
  await value.fill("2024-02-30");
  await expect(builder.getByRole("alert")).toContainText("hire_date needs a date as YYYY-MM-DD");

  // The builder offers ordering operators on dates; a link or pasted JSON may use contains,
  // which looks for text ("2020"), without a calendar.
  const filter = { and: [{ key: "hire_date", operator: "contains", value: "2020" }] };
  await openView(page, "employees", { filter });
  await expect(value).toHaveAttribute("type", "text");
  await expect(value).toHaveValue("2020");
  const api = await apiQuery("employees", { filter, limit: 0 });
  await expect(page.getByTestId("total-count")).toHaveText(`${fmt(api.count)} Records match`);
});

test("opening the filter builder puts the focus in it: \"add condition\" when empty, the first condition when there is one", async ({ page }) => {
  await page.goto("/records/demo/employees");
  await expect(page.getByRole("grid")).toBeVisible();
  await page.getByRole("button", { name: "Filter", exact: true }).focus();
  await page.keyboard.press("Enter");
  const builder = page.getByRole("region", { name: "Filter builder" });
  await expect(builder.getByRole("button", { name: "Filter: add condition" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(builder.getByLabel("Condition 1 field")).toBeVisible();
  // Closed and opened again with a condition in the draft: its first control.
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(builder.getByLabel("Condition 1 field")).toBeFocused();
  // Its × removes it and the focus stays in the builder (not on the page, where Esc reaches nothing).
  await builder.getByRole("button", { name: "Remove Condition 1" }).focus();
  await page.keyboard.press("Enter");
  await expect(builder.getByRole("button", { name: "Filter: add condition" })).toBeFocused();
});

test("at 200% zoom (640×400) with the filter builder open, the grid keeps room for rows and the page scrolls", async ({ page }) => {
  await page.setViewportSize({ width: 640, height: 400 });
  await openView(page, "employees", { filter: { and: [{ key: "department", operator: "equal", value: "Finance" }] } });
  if (!(await page.getByRole("region", { name: "Filter builder" }).count())) await page.getByRole("button", { name: /^Filter/ }).first().click();
  await expect(page.getByRole("region", { name: "Filter builder" })).toBeVisible();
  // It was 25 px tall: no row showed.
  expect(await page.getByRole("grid").evaluate((g) => g.getBoundingClientRect().height)).toBeGreaterThanOrEqual(200);
  await page.getByRole("grid").locator('[role="gridcell"][tabindex="0"]').focus();
  await expect(page.getByRole("grid").locator('[role="row"][aria-rowindex="2"]')).toBeInViewport();
});

test("at 200% zoom (640×450) every condition of the filter builder is shown, the page scrolling rather than a box inside it", async ({ page }) => {
  // Review 39b #8: the builder scrolled inside a box a third of the window high, and its second
  // condition was out of sight with no sign of it.
  await page.setViewportSize({ width: 640, height: 450 });
  await openView(page, "employees", { filter: { and: [{ key: "country", operator: "equal", value: "Brazil" }, { key: "age", operator: "greaterThan", value: 60 }] } });
  if (!(await page.getByRole("region", { name: "Filter builder" }).count())) await page.getByRole("button", { name: /^Filter/ }).first().click();
  const builder = page.getByRole("region", { name: "Filter builder" });
  await expect(builder.getByRole("combobox").filter({ hasText: "age" }).first()).toBeVisible();
  expect(await builder.evaluate((b) => b.scrollHeight - b.clientHeight)).toBeLessThanOrEqual(1);
});
