/** Layout checks for screenshots that are looked at: rows that must not wrap, no sideways scroll. */
import { expect, type Locator, type Page } from "@playwright/test";

export const SHOTS_UI = process.env.E2E_SHOTS ?? "/tmp/shots-ui-kit";

/** Every shown child of the row on one line: their vertical centres within 2 px. */
export async function oneLine(row: Locator): Promise<void> {
  const centres = await row.evaluate((el) =>
    [...el.children]
      .map((c) => c.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => Math.round(r.top + r.height / 2)),
  );
  expect(Math.max(...centres) - Math.min(...centres), `${await row.getAttribute("class")} wraps`).toBeLessThanOrEqual(2);
}

export async function noSideways(page: Page): Promise<void> {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(over).toBeLessThanOrEqual(0);
}
