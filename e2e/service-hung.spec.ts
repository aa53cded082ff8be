/**
 * The service hung, not dead (issue 23 item 8): with the embedded service stopped (SIGSTOP), a
 * fresh page does not sit on "Loading configuration…": within 5 s the badge and a message say
 * the service is not answering; after SIGCONT the page fills in by itself, without a reload.
 */
import { expect, test } from "@playwright/test";
import { teamUrl, useTeamStack } from "./testing/team";

const stack = useTeamStack((s) => {
  // Long enough that the supervisor does not restart it during the test (that is tested in vitest).
  s.env = { BASEBOARD_SERVICE_HUNG_SECONDS: "120" };
});

test("a hung service is shown within 5 s, and the app recovers by itself when it answers", async ({ page }) => {
  const service = stack.processes().find((p) => /service[/\\]main\.(ts|js)/.test(p.cmd));
  expect(service, JSON.stringify(stack.processes())).toBeDefined();
  const pid = service!.pid;
  await page.goto(`${teamUrl}/records/demo/employees`);
  await expect(page.getByRole("link", { name: "employees" })).toBeVisible();
  process.kill(pid, "SIGSTOP");
  try {
    await page.reload();
    const start = Date.now();
    await expect(page.getByRole("alert")).toContainText("The service is not answering", { timeout: 5000 });
    await expect(page.getByTestId("upstream")).toHaveAttribute("data-state", "down");
    expect(Date.now() - start).toBeLessThan(5000);
    await page.screenshot({ path: "test-results/service-hung.png" });
  } finally {
    process.kill(pid, "SIGCONT");
  }
  await expect(page.getByRole("link", { name: "employees" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("upstream")).toHaveAttribute("data-state", "up");
  await expect(page.getByTestId("range")).toContainText("of 1,000");
});
