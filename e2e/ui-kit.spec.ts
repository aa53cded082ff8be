/**
 * One UI kit (issue 13 item 5), looked at: both workspaces at 1440×900 and 1024×768, with the
 * upload panel open. No toolbar wraps, nothing overflows sideways, the upload panel covers no
 * file, and the storage header matches records' (same title size, bucket named once). The
 * screenshots are written to E2E_SHOTS (default /tmp/shots-ui-kit) to be looked at.
 */
import { expect, test } from "@playwright/test";
import { SHOTS_UI, noSideways, oneLine } from "./testing/layout";
import { dropFiles, dropzone, uploadRow } from "./testing/storage";

const SHOTS = SHOTS_UI;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
];

for (const size of SIZES) {
  test(`both workspaces at ${size.width}×${size.height}`, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto("/records/demo/employees");
    await expect(page.getByRole("grid")).toBeVisible();
    await oneLine(page.locator(".ws-head"));
    await noSideways(page);
    await page.screenshot({ path: `${SHOTS}/records-${size.width}.png` });
    const recordsTitle = await page.locator(".ws-title").evaluate((el) => getComputedStyle(el).fontSize);

    await page.goto("/storage/team-files?folder=docs");
    await expect(dropzone(page)).toBeVisible();
    const name = `kit-${size.width}.txt`;
    await dropFiles(page, dropzone(page), [{ name, type: "text/plain", b64: Buffer.from("kit").toString("base64") }]);
    await expect(uploadRow(page, `docs/${name}`)).toHaveAttribute("data-status", "done");
    await expect(page.getByRole("button", { name: `Preview ${name}` })).toBeVisible();
    await oneLine(page.locator(".st-toolbar"));
    await oneLine(page.locator(".st-head"));
    await noSideways(page);
    // Same heading as records, and the bucket is named once (the breadcrumb starts at its root).
    expect(await page.getByRole("heading", { level: 1 }).evaluate((el) => getComputedStyle(el).fontSize)).toBe(recordsTitle);
    await expect(page.getByText("team-files", { exact: true })).toHaveCount(1);
    // The upload panel is docked beside the files, not over them.
    const panel = await page.getByRole("region", { name: /^Uploads/ }).boundingBox();
    const files = await dropzone(page).boundingBox();
    expect(panel && files).toBeTruthy();
    const overlap = panel!.y < files!.y + files!.height && files!.y < panel!.y + panel!.height && panel!.x < files!.x + files!.width && files!.x < panel!.x + panel!.width;
    expect(overlap, "the upload panel covers the file list").toBe(false);
    await page.screenshot({ path: `${SHOTS}/storage-${size.width}.png` });
  });
}

test("at 800×700 the records toolbar wraps: every button is inside the window, and focusing one moves nothing sideways", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 700 });
  await page.goto("/records/demo/employees");
  await expect(page.getByRole("grid")).toBeVisible();
  for (const name of ["Filter", "Views", "Undo", "Redo", "Refresh"]) {
    const box = (await page.locator(".ws-head").getByRole("button", { name, exact: name !== "Views" }).first().boundingBox())!;
    expect(box.x + box.width, `${name} is past the right edge`).toBeLessThanOrEqual(800);
  }
  await page.getByRole("button", { name: "Refresh" }).focus();
  expect(await page.locator("main").evaluate((el) => el.scrollLeft)).toBe(0);
  await noSideways(page);
  await page.screenshot({ path: `${SHOTS}/records-800.png` });
});
