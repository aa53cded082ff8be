/**
 * Issue 24, "is any of" against the hosted interface (SERVICE_PROFILE=interface, only `equal`):
 * the builder sends an `or` of `equal`s, and suggestions come from the pages already loaded.
 */
import { expect, test } from "@playwright/test";
import { useHostedStack } from "./testing/hosted";
import { addAnyOfCondition } from "./testing/records";

const stack = useHostedStack();

test("is any of goes to the hosted interface as an or of equals; suggestions from the loaded pages", async ({ page }) => {
  await page.goto("/records/demo/employees");
  await expect(page.getByRole("grid")).toBeVisible();
  const { builder, add } = await addAnyOfCondition(page, "department");
  await add.fill("Le");
  // No distinct extension upstream: the values come from the rows on the page.
  await expect(builder.locator("datalist option[value='Legal']")).toHaveCount(1);
  await add.fill("Legal");
  await add.press("Enter");
  await add.fill("Sales");
  await add.press("Enter");
  const sent = page.waitForRequest((r) => r.url().endsWith("/query") && (r.postData() ?? "").includes("Legal"));
  await builder.getByRole("button", { name: "Apply filter" }).click();
  const body = (await sent).postDataJSON();
  const or = { or: [{ key: "department", operator: "equal", value: "Legal" }, { key: "department", operator: "equal", value: "Sales" }] };
  expect(body.filter).toEqual({ and: [or] });
  // The interface itself answers: every shown row is Legal or Sales, the count is the upstream's.
  const res = await stack.call("/v0/record/demo/employees/query", { filter: { and: [or] }, limit: 1000 });
  expect(res.status).toBe(200);
  const truth = (await res.json()) as { count: number; items: { department: string }[] };
  expect(truth.count).toBeGreaterThan(0);
  // Looked at once the answer is drawn (read at once, the rows could still be the unfiltered page's).
  const shown = () => page.locator('[role=grid] [role=row][aria-selected] [data-col="department"]').allTextContents();
  await expect.poll(async () => (await shown()).length).toBeGreaterThan(0);
  await expect.poll(async () => (await shown()).every((d) => d === "Legal" || d === "Sales")).toBe(true);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await page.screenshot({ path: "test-results/shots/hosted-any-of.png" });
});
