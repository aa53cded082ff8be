/**
 * Storage jobs in the app (issue 22.2), in a real Chromium against the real proxy and service:
 * rename a file and move a folder by the dialog, with progress and outcome; delete a folder.
 */
import { seriousViolations } from "./testing/a11y";
import { type Locator, expect, test } from "@playwright/test";
import { SHOTS, listKeys, putText, shootBoth } from "./testing/storage";


test("rename a file, move a folder and delete a folder by server-side jobs", async ({ page }) => {
  const base = `jobs-${Date.now()}`;
  await putText("team-files", `${base}/a.txt`, "alpha");
  for (const n of ["1", "2", "3"]) await putText("team-files", `${base}/sub/${n}.txt`, `sub ${n}`);

  await page.goto(`/storage/team-files?folder=${base}`);
  await page.getByRole("button", { name: "Move, rename or copy a.txt" }).click();
  const dialog = page.getByRole("dialog", { name: "Move, rename or copy file" });
  const path = dialog.getByLabel("New path in team-files");
  await expect(path).toHaveValue(`${base}/a.txt`);
  // Nothing typed yet is not an error: no red, only Move held back until the path changes.
  await expect(path).not.toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText("That is where it is already.")).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Move", exact: true })).toBeDisabled();
  await path.fill(`${base}/renamed.txt`);
  expect(await seriousViolations(page, "dialog")).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/40-move-dialog.png` });
  await dialog.getByRole("button", { name: "Move", exact: true }).click();
  await expect(page.getByTestId("job-text")).toHaveText(`Moved 1 file: ${base}/a.txt → ${base}/renamed.txt`);
  await page.locator(".dialog-foot").getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("button", { name: "Preview renamed.txt" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Preview a.txt" })).toHaveCount(0);
  // The keyboard is where the file went, not on whatever took its old place (review 48b #5).
  await expect(page.getByRole("button", { name: "Preview renamed.txt" })).toBeFocused();

  // A folder, from the keyboard: F2 on its row (review 38b #7: only its Move button did), a new path, Enter.
  await page.getByRole("button", { name: "Open folder sub" }).focus();
  await page.keyboard.press("F2");
  await expect(page.getByLabel("New path in team-files")).toBeFocused();
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
  // How many files go is said before they go (review 29b #12).
  await expect(page.getByRole("dialog", { name: `Delete folder ${base}/moved/ and its 3 files?` })).toBeVisible();
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
  // The footer counts the matches, not the folder the search began in.
  await expect(page.locator(".st-foot")).toHaveText(/^1 match “needle-deep” in the whole bucket/);
  await page.screenshot({ path: `${SHOTS}/42-search-bucket.png` });
  expect(await seriousViolations(page, ".st-toolbar")).toEqual([]);
});

/** A checkbox or radio with its label on one line beside it (the input once took the dialog's whole width). */
async function expectOneRow(control: Locator) {
  const input = await control.boundingBox();
  expect(input!.width).toBeLessThan(24);
  const label = await control.locator("xpath=ancestor::label[1]").boundingBox();
  expect(label!.height).toBeLessThan(28);
}

test("move dialogs: readable replace and action rows; an existing destination names the checkbox, not an API field", async ({ page }) => {
  const base = `clash-${Date.now()}`;
  for (const n of ["a", "b"]) await putText("team-files", `${base}/${n}.txt`, `new ${n}`);
  for (const n of ["a", "b"]) await putText("team-files", `${base}/into/${n}.txt`, `old ${n}`);
  await page.goto(`/storage/team-files?folder=${base}`);

  // One file's dialog: refused onto an existing file, in the app's words; then replaced by ticking the box.
  await page.getByRole("button", { name: "Move, rename or copy a.txt" }).click();
  const dialog = page.getByRole("dialog", { name: "Move, rename or copy file" });
  const replace = dialog.getByRole("checkbox", { name: "Replace existing files at the new path" });
  await expectOneRow(replace);
  await expectOneRow(dialog.getByRole("radio", { name: "Move or rename" }));
  await expectOneRow(dialog.getByRole("radio", { name: "Copy" }));
  await dialog.getByLabel("New path in team-files").fill(`${base}/into/a.txt`);
  await dialog.getByRole("button", { name: "Move", exact: true }).click();
  const refusal = page.getByText(`“${base}/into/a.txt” already exists. Tick “Replace existing files at the new path” to replace it (every version of it), or choose another name.`);
  await expect(refusal).toBeVisible();
  // Said in the dialog, beside the path (not in a toast that outlives the next try's success).
  await expect(dialog.getByRole("alert")).toContainText(`Could not move ${base}/a.txt: “${base}/into/a.txt” already exists.`);
  await expect(dialog.getByLabel("New path in team-files")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("New path in team-files")).toBeFocused();
  await expect(page.getByText(/"overwrite"/)).toHaveCount(0);
  await shootBoth(page, "43-move-onto-existing");
  await replace.check();
  await expect(page.getByRole("alert")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Move", exact: true }).click();
  await expect(page.getByTestId("job-text")).toHaveText(`Moved 1 file: ${base}/a.txt → ${base}/into/a.txt`);
  await page.locator(".dialog-foot").getByRole("button", { name: "Close" }).click();

  // A folder's dialog.
  await page.getByRole("button", { name: "Move, rename or copy folder into" }).click();
  const folderDialog = page.getByRole("dialog", { name: "Move, rename or copy folder" });
  await expectOneRow(folderDialog.getByRole("checkbox", { name: "Replace existing files at the new path" }));
  await expectOneRow(folderDialog.getByRole("radio", { name: "Move or rename" }));
  await shootBoth(page, "44-folder-move-dialog");
  await folderDialog.getByRole("button", { name: "Cancel" }).click();

  // The selection bar's "Move to…": the outcome names its own checkbox.
  await page.getByRole("checkbox", { name: "Select b.txt" }).click();
  await page.getByRole("region", { name: "Selection" }).getByRole("button", { name: "Move to…" }).click();
  const bulk = page.getByRole("dialog", { name: "Move 1 file" });
  await expectOneRow(bulk.getByRole("checkbox", { name: "Replace existing files in that folder" }));
  await bulk.getByLabel(/Into the folder/).fill(`${base}/into/`);
  await shootBoth(page, "45-bulk-move-dialog");
  await bulk.getByRole("button", { name: "Move 1 file" }).click();
  await expect(page.getByTestId("bulk-outcome")).toHaveText(`0 of 1 moved to ${base}/into/; 1 failed:`);
  await expect(page.locator(".st-bulk-failed")).toHaveText(
    `${base}/b.txt: “${base}/into/b.txt” already exists. Tick “Replace existing files in that folder” to replace it (every version of it), or choose another folder.`,
  );
  await shootBoth(page, "46-bulk-move-refused");
  await page.locator(".dialog-foot").getByRole("button", { name: "Close" }).click();
  expect(await listKeys("team-files", `${base}/into/`)).toEqual([`${base}/into/a.txt`, `${base}/into/b.txt`]);
});
