/**
 * Storage in hosted mode against SERVICE_PROFILE=interface through a real second launcher: the
 * upstream cannot list a bucket, so files are known from this browser's catalogue and opened by
 * key (issue 13 item 3); one replace confirmation per batch and no 404 in the console (item 7).
 */
import { expect, type Page, test } from "@playwright/test";
import { hostedUrl, useHostedStack } from "./testing/hosted";
import { SHOTS_UI, noSideways, oneLine } from "./testing/layout";
import { dropFiles, dropzone, uploadRow } from "./testing/storage";

const stack = useHostedStack();

/** Uploads straight to the upstream (as another client would): the app never saw these files. */
async function putFile(bucket: string, key: string, text: string, type = "text/plain"): Promise<string> {
  const form = new FormData();
  form.append("key", key);
  form.append("file", new Blob([text], { type }), key.split("/").pop());
  const res = await stack.call(`/v0/storage/object/${bucket}`, undefined, { method: "POST", body: form });
  expect(res.status).toBe(200);
  return ((await res.json()) as { key: string }).key;
}

/** Console errors and failed responses the user could see in the developer tools. */
function watchConsole(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") seen.push(m.text());
  });
  page.on("response", (r) => {
    if (r.status() >= 400) seen.push(`${r.status()} ${r.url()}`);
  });
  return seen;
}

const b64 = (s: string) => Buffer.from(s).toString("base64");

test("open by key: a file this browser never saw, a versioned key, a wrong key; opened files join the catalogue", async ({ page }) => {
  const v1 = await putFile("team-files", "reports/q3 summary.txt", "first version");
  await putFile("team-files", "reports/q3 summary.txt", "second version");
  await page.goto("/storage/team-files");
  await expect(page.getByRole("note")).toContainText("cannot list the files");
  await expect(page.getByText("No files uploaded from this browser here yet.")).toBeVisible();
  const seen = watchConsole(page);

  // A wrong key: said in the dialog, and nothing red in the console.
  await page.getByRole("button", { name: "Open by key" }).click();
  const dialog = page.getByRole("dialog", { name: "Open a file of team-files by key" });
  const input = dialog.getByLabel("Key, versioned key or URL");
  await expect(input).toBeFocused();
  await input.fill("reports/Q3 summary.txt");
  await input.press("Enter");
  await expect(dialog.getByRole("alert")).toHaveText("There is no file “reports/Q3 summary.txt” in team-files. Keys are case-sensitive.");
  await input.fill("reports//x");
  await input.press("Enter");
  await expect(dialog.getByRole("alert")).toContainText("empty folder name");

  // The key: the latest version, previewed, with download and a signed link.
  await input.fill("reports/q3 summary.txt");
  await dialog.getByRole("button", { name: "Open" }).click();
  const preview = page.getByRole("dialog", { name: "q3 summary.txt" });
  await expect(preview.getByLabel("Contents of q3 summary.txt")).toHaveText("second version");
  await expect(preview.getByRole("link", { name: "Download q3 summary.txt" })).toHaveAttribute("href", "/api/v0/storage/public/team-files/reports/q3%20summary.txt");
  await preview.getByRole("button", { name: "Copy a link to q3 summary.txt" }).click();
  const share = page.getByRole("dialog", { name: "Share q3 summary.txt" });
  await share.getByRole("button", { name: "Copy signed URL" }).click();
  const signed = await share.getByLabel("Signed URL").inputValue();
  expect(await (await fetch(signed)).text()).toBe("second version");
  await share.getByRole("button", { name: "Close" }).click();
  await preview.getByRole("button", { name: "Close" }).click();
  // The browser followed it into its folder, where it is listed now, and after a reload too.
  await expect(page).toHaveURL(/folder=reports/);
  await expect(page.getByRole("button", { name: "Preview q3 summary.txt" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "Preview q3 summary.txt" })).toBeVisible();

  // A versioned key, pasted as the file's URL: that version, and its signed link names it.
  await page.getByRole("button", { name: "Open by key" }).click();
  await expect(input).toHaveValue("reports/");
  await input.fill(`${hostedUrl}/api/v0/storage/public/team-files/${v1.split("/").map(encodeURIComponent).join("/")}`);
  await input.press("Enter");
  await expect(preview.getByLabel("Contents of q3 summary.txt")).toHaveText("first version");
  // The internal versioned key is not shown (review round 6); the signed link below names it.
  await expect(preview.getByText(v1)).toHaveCount(0);
  await preview.getByRole("button", { name: "Copy a link to q3 summary.txt" }).click();
  await share.getByRole("button", { name: "Copy signed URL" }).click();
  expect(decodeURIComponent(new URL(await share.getByLabel("Signed URL").inputValue()).pathname)).toContain(`/v0/storage/sign/team-files/${v1}`);
  expect(seen).toEqual([]);
});

test("an image opened by key is shown in its preview", async ({ page }) => {
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");
  const form = new FormData();
  form.append("key", "pics/dot.png");
  form.append("file", new Blob([png], { type: "image/png" }), "dot.png");
  expect((await stack.call("/v0/storage/object/public-assets", undefined, { method: "POST", body: form })).status).toBe(200);
  await page.goto("/storage/public-assets");
  await page.getByRole("button", { name: "Open by key" }).click();
  await page.getByLabel("Key, versioned key or URL").fill("pics/dot.png");
  await page.getByLabel("Key, versioned key or URL").press("Enter");
  const img = page.getByRole("dialog", { name: "dot.png" }).getByRole("img", { name: "dot.png" });
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
});

test("uploads: one confirmation for every existing key of a batch, listing them; no 404 in the console for new keys", async ({ page }) => {
  await putFile("team-files", "batch/a.txt", "old a");
  await putFile("team-files", "batch/b.txt", "old b");
  await page.goto("/storage/team-files?folder=batch");
  const seen = watchConsole(page);
  await dropFiles(page, dropzone(page), [
    { name: "a.txt", type: "text/plain", b64: b64("new a") },
    { name: "b.txt", type: "text/plain", b64: b64("new b") },
    { name: "c.txt", type: "text/plain", b64: b64("new c") },
  ]);
  const confirm = page.getByRole("dialog", { name: "Upload new versions of 2 files?" });
  await expect(confirm.getByRole("listitem")).toHaveText(["team-files/batch/a.txt", "team-files/batch/b.txt"]);
  await expect(page.getByRole("dialog")).toHaveCount(1);
  // The new key did not wait for the answer.
  await expect(uploadRow(page, "batch/c.txt")).toHaveAttribute("data-status", "done");
  await confirm.getByRole("button", { name: "Upload 2 new versions" }).click();
  await expect(uploadRow(page, "batch/a.txt")).toHaveAttribute("data-status", "done");
  await expect(uploadRow(page, "batch/b.txt")).toHaveAttribute("data-status", "done");
  expect(await (await stack.call("/v0/storage/public/team-files/batch/b.txt")).text()).toBe("new b");
  expect(seen).toEqual([]);
});

test("hosted at 1024×768: both workspaces' headers and toolbars on one line, with Open by key", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  // Fields are learnt from a first page with all of them; then three shown, the rest counted.
  await page.goto("/records/demo/employees");
  await expect(page.getByRole("grid")).toBeVisible();
  await page.goto("/records/demo/employees?cols=employee_id,full_name,department");
  await expect(page.getByRole("grid")).toBeVisible();
  await expect(page.getByRole("button", { name: /Columns/ })).toContainText("hidden");
  await oneLine(page.locator(".ws-head"));
  await noSideways(page);
  await page.screenshot({ path: `${SHOTS_UI}/hosted-records-1024.png` });
  await page.goto("/storage/team-files?folder=reports");
  await expect(page.getByRole("button", { name: "Open by key" })).toBeVisible();
  await oneLine(page.locator(".st-head"));
  await oneLine(page.locator(".st-toolbar"));
  await noSideways(page);
  await page.screenshot({ path: `${SHOTS_UI}/hosted-storage-1024.png` });
});
