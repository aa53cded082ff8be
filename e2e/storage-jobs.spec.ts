/**
 * Storage jobs in the app (issue 22.2), in a real Chromium against the real proxy and service:
 * rename a file and move a folder by the dialog, with progress and outcome; delete a folder.
 */
import { seriousViolations } from "./testing/a11y";
import { expect, test } from "@playwright/test";
import { SHOTS, listKeys, putText } from "./testing/storage";


test("rename a file, move a folder and delete a folder by server-side jobs", async ({ page }) => {
  const base = `jobs-${Date.now()}`;
  await putText("team-files", `${base}/a.txt`, "alpha");
  for (const n of ["1", "2", "3"]) await putText("team-files", `${base}/sub/${n}.txt`, `sub ${n}`);

  await page.goto(`/storage/team-files?folder=${base}`);
  await page.getByRole("button", { name: "Move, rename or copy a.txt" }).click();
  const dialog = page.getByRole("dialog", { name: "Move, rename or copy file" });
  const path = dialog.getByLabel("New path in team-files");
  await expect(path).toHaveValue(`${base}/a.txt`);
  await path.fill(`${base}/renamed.txt`);
  expect(await seriousViolations(page, "dialog")).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/40-move-dialog.png` });
  await dialog.getByRole("button", { name: "Move", exact: true }).click();
  await expect(page.getByTestId("job-text")).toHaveText(`Moved 1 file: ${base}/a.txt → ${base}/renamed.txt`);
  await page.locator(".dialog-foot").getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("button", { name: "Preview renamed.txt" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Preview a.txt" })).toHaveCount(0);

  // A folder, from the keyboard: its Move button, a new path, Enter.
  await page.getByRole("button", { name: "Move, rename or copy folder sub" }).focus();
  await page.keyboard.press("Enter");
  await page.getByLabel("New path in team-files").fill(`${base}/moved/`);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("job-text")).toHaveText(`Moved 3 files: ${base}/sub/ → ${base}/moved/`);
  await page.screenshot({ path: `${SHOTS}/41-move-done.png` });
  await page.locator(".dialog-foot").getByRole("button", { name: "Close" }).click();
  expect(await listKeys("team-files", `${base}/moved/`)).toEqual([`${base}/moved/1.txt`, `${base}/moved/2.txt`, `${base}/moved/3.txt`]);
  expect(await listKeys("team-files", `${base}/sub/`)).toEqual([]);

  // Refused onto an existing name unless "Replace" is ticked.
  await page.getByRole("button", { name: "Move, rename or copy renamed.txt" }).click();
  await page.getByLabel("New path in team-files").fill(`${base}/moved/1.txt`);
  await page.getByRole("button", { name: "Move", exact: true }).click();
  await expect(page.getByText(/already exists/).first()).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Delete folder moved" }).click();
  await page.getByRole("button", { name: "Delete folder", exact: true }).click();
  await expect(page.getByTestId("job-text")).toHaveText(`Deleted 3 files: ${base}/moved/`);
  await page.locator(".dialog-foot").getByRole("button", { name: "Close" }).click();
  expect(await listKeys("team-files", `${base}/moved/`)).toEqual([]);
  await expect(page.getByRole("button", { name: "Open folder moved" })).toHaveCount(0);
});

test("the filter box searches this folder or the whole bucket", async ({ page }) => {
  const base = `search-${Date.now()}`;
  await putText("team-files", `${base}/x/y/Needle-Deep.txt`, "found me");
  await page.goto("/storage/team-files");
  const filter = page.getByRole("searchbox", { name: "Filter by name" });
  await filter.fill("needle-deep");
  await expect(page.getByRole("button", { name: `Preview ${base}/x/y/Needle-Deep.txt` })).toHaveCount(0);
  await page.getByRole("combobox", { name: "Where to filter" }).selectOption("bucket");
  await expect(page.getByRole("button", { name: `Preview ${base}/x/y/Needle-Deep.txt` })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/42-search-bucket.png` });
  expect(await seriousViolations(page, ".st-toolbar")).toEqual([]);
});
