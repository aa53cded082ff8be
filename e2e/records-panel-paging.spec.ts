/**
 * The record panel pages (issue 23 item 6): Next on the last row of a page goes on to the next
 * page and shows its first Record; Previous on the first row goes back to the page before and
 * shows its last Record. Checked against the API's order.
 */
import { expect, test } from "@playwright/test";

async function idsOfPage(page: import("@playwright/test").Page, skip: number, limit: number): Promise<string[]> {
  return page.evaluate(
    async ([skip, limit]) => {
      const res = await fetch("/api/v0/record/demo/employees/query", {
        method: "POST",
        headers: { "content-type": "application/json", "x-baseboard-client": "1" },
        body: JSON.stringify({ select: ["employee_id"], sort: [{ key: "employee_id", direction: "ascending" }], skip, limit }),
      });
      return ((await res.json()) as { items: { employee_id: string }[] }).items.map((r) => r.employee_id);
    },
    [skip, limit] as const,
  );
}

test("Next on a page's last row opens the next page's first Record, and Previous comes back", async ({ page }) => {
  await page.goto("/records/demo/employees?size=25&sort=employee_id");
  await expect(page.getByRole("grid")).toBeVisible();
  const first = await idsOfPage(page, 0, 25);
  const second = await idsOfPage(page, 25, 25);
  const lastOnPage1 = first[24];
  await page.goto(`/records/demo/employees?size=25&sort=employee_id&record=${lastOnPage1}`);
  const panel = page.getByRole("complementary").filter({ hasText: `Record ${lastOnPage1}` });
  await expect(panel).toBeVisible();
  await panel.getByRole("button", { name: "Next Record" }).click();
  await expect(page).toHaveURL(new RegExp(`page=2.*record=${second[0]}|record=${second[0]}.*page=2`));
  await expect(page.getByRole("complementary").filter({ hasText: `Record ${second[0]}` })).toBeVisible();
  await expect(page.getByText("Page 2 of")).toBeVisible();
  await page.getByRole("complementary").getByRole("button", { name: "Previous Record" }).click();
  await expect(page.getByRole("complementary").filter({ hasText: `Record ${lastOnPage1}` })).toBeVisible();
  await expect(page).not.toHaveURL(/page=2/);
});
