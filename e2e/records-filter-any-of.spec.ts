/**
 * Issue 24, the filter builder: "is any of" (sent as `anyOf` to the local service), value
 * suggestions from the distinct extension, and the JSON view's error put where the eye is.
 */
import { seriousViolations } from "./testing/a11y";
import { expect, test } from "@playwright/test";
import { addAnyOfCondition, apiQuery, openView } from "./testing/records";

const fmt = (n: number) => n.toLocaleString("en-US");

test("is any of: chips with suggestions, sent as anyOf, the same rows and count as the API", async ({ page }) => {
  await openView(page, "employees");
  const { builder, add } = await addAnyOfCondition(page, "department");
  // Suggestions come from the service's distinct extension (most frequent first).
  const sent = page.waitForRequest((r) => r.url().endsWith("/distinct") && r.method() === "POST");
  await add.fill("Sa");
  expect((await sent).postDataJSON()).toMatchObject({ key: "department", prefix: "Sa" });
  await expect(builder.locator("datalist option[value='Sales']")).toHaveCount(1);
  await add.fill("Sales");
  await add.press("Enter");
  await add.fill("Legal");
  await add.press("Enter");
  await expect(builder.getByTestId("any-of").locator(".chip")).toHaveText(["Sales×", "Legal×"]);
  const querySent = page.waitForRequest((r) => r.url().endsWith("/query") && (r.postData() ?? "").includes("anyOf"));
  await builder.getByRole("button", { name: "Apply filter" }).click();
  await querySent;
  const filter = { and: [{ key: "department", operator: "anyOf", value: ["Sales", "Legal"] }] };
  expect(JSON.parse(new URL(page.url()).searchParams.get("filter")!)).toEqual(filter);
  const api = await apiQuery("employees", { filter: { or: [{ key: "department", operator: "equal", value: "Sales" }, { key: "department", operator: "equal", value: "Legal" }] }, limit: 0 });
  expect(api.count).toBeGreaterThan(0);
  await expect(builder.getByTestId("filter-count")).toHaveText(`${fmt(api.count)} matching Records`);
  const shown = await page.locator('[role=grid] [role=row][aria-selected] [data-col="department"]').allTextContents();
  expect(shown.length).toBeGreaterThan(0);
  expect(new Set(shown)).toEqual(new Set(shown.filter((d) => d === "Sales" || d === "Legal")));
  await page.screenshot({ path: "test-results/shots/filter-any-of.png" });
  expect(await seriousViolations(page, ".filter-builder")).toEqual([]);

  // A chip is removed with its button; Backspace in the empty box removes the last.
  await builder.getByRole("button", { name: "Remove Legal from Condition 1 values" }).click();
  await expect(builder.getByTestId("any-of").locator(".chip")).toHaveText(["Sales×"]);
  await add.press("Backspace");
  await expect(builder.getByTestId("any-of").locator(".chip")).toHaveCount(0);
  await expect(builder.getByTestId("filter-count")).toContainText("to fix before applying");
});

test("equals on a text Field suggests values too", async ({ page }) => {
  await openView(page, "employees");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const builder = page.getByRole("region", { name: "Filter builder" });
  await builder.getByRole("button", { name: "Filter: add condition" }).click();
  await builder.getByLabel("Condition 1 field").selectOption("country");
  await builder.getByLabel("Condition 1 value", { exact: true }).fill("Bra");
  await expect(builder.locator("datalist option[value='Brazil']")).toHaveCount(1);
});

test("a JSON error on Apply is shown at the Apply button and the caret goes to the mistake", async ({ page }) => {
  await openView(page, "employees");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const builder = page.getByRole("region", { name: "Filter builder" });
  await builder.getByRole("button", { name: "JSON" }).click();
  const box = builder.getByLabel(/Filter JSON/);
  await box.fill('{"and": [{"key": "age", "operator": "equal" "value": 3}]}');
  await builder.getByRole("button", { name: "Apply filter" }).click();
  await expect(builder.getByTestId("filter-count")).toContainText("Fix the JSON first: That is not valid JSON");
  await expect(box).toBeFocused();
  // The caret sits where JSON.parse stopped (the missing comma before "value").
  const caret = await box.evaluate((el: HTMLTextAreaElement) => el.selectionStart);
  expect(caret).toBe('{"and": [{"key": "age", "operator": "equal" '.length);
  await page.screenshot({ path: "test-results/shots/filter-json-error.png" });
});

test("Ctrl+Enter applies what is on screen: a value still typed in the \"is any of\" box is included, as the button includes it", async ({ page }) => {
  await openView(page, "employees");
  const { builder, add } = await addAnyOfCondition(page, "department");
  await add.fill("Sales");
  await add.press("Enter");
  await add.fill("Legal");
  await add.press("Control+Enter");
  await expect.poll(() => JSON.parse(new URL(page.url()).searchParams.get("filter") ?? "null")).toEqual({ and: [{ key: "department", operator: "anyOf", value: ["Sales", "Legal"] }] });
  await expect(builder.getByTestId("any-of").locator(".chip")).toHaveText(["Sales×", "Legal×"]);
  await expect(add).toHaveValue("");
});

test("the first value typed in an \"is any of\" box counts while it is typed: no error, and Apply takes it", async ({ page }) => {
  await openView(page, "employees");
  const { builder, add } = await addAnyOfCondition(page, "department");
  // Empty: it says what to do.
  await expect(builder.getByText("Add at least one value (type it and press Enter).")).toBeVisible();
  await add.pressSequentially("Sa");
  await expect(builder.getByText("Add at least one value (type it and press Enter).")).toHaveCount(0);
  await add.pressSequentially("les");
  const apply = builder.getByRole("button", { name: "Apply filter" });
  await expect(apply).toBeEnabled();
  await apply.click();
  await expect.poll(() => JSON.parse(new URL(page.url()).searchParams.get("filter") ?? "null")).toEqual({ and: [{ key: "department", operator: "anyOf", value: ["Sales"] }] });
  await expect(builder.getByTestId("any-of").locator(".chip")).toHaveText(["Sales×"]);
});
