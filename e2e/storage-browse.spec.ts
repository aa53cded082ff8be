/**
 * Browsing buckets in a real Chromium against the real proxy and local service: the upload
 * button, text and PDF previews, paging through a folder bigger than one list page, and the
 * lightbox by keyboard.
 */
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { SHOTS, dropFiles, dropzone, listKeys, shootBoth, uploadRow } from "./testing/storage";
import { serviceCall } from "./testing/service";

test("team-files: upload by the button, text and PDF previews", async ({ page }) => {
  await page.goto("/storage/team-files?folder=docs");
  const name = `button-${Date.now()}.txt`;
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload files" }).click();
  await (await chooser).setFiles({ name, mimeType: "text/plain", buffer: Buffer.from("Uploaded with the button.") });
  await expect(uploadRow(page, `docs/${name}`)).toHaveAttribute("data-status", "done");
  expect(await listKeys("team-files", "docs/")).toContain(`docs/${name}`);

  await page.getByRole("button", { name: "Preview readme.txt" }).click();
  await expect(page.getByLabel("Contents of readme.txt")).not.toBeEmpty();
  // The key, not the internal versioned key (v…/docs/readme.txt) the preview loads.
  const readme = page.getByRole("dialog", { name: "readme.txt" });
  await expect(readme).toContainText("Key: docs/readme.txt");
  await expect(readme).not.toContainText(/v\d+\//);
  await shootBoth(page, "10-text-preview-key");
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Preview manual.pdf" }).click();
  const pdf = page.getByRole("dialog", { name: "manual.pdf" });
  // Chromium shows it in its own viewer; a browser without one gets an explanation instead.
  await expect(pdf.locator("iframe[title='PDF preview of manual.pdf'], .st-no-preview")).toBeVisible();
  // The viewer gets the file's own URL (a blob: URL made it show and save a random id as the name).
  if (await pdf.locator("iframe").count()) {
    await expect(pdf.locator("iframe")).toHaveAttribute("src", /^\/api\/v0\/storage\/public\/team-files\/v\d+\/docs\/manual\.pdf$/);
  }
  await page.waitForTimeout(500); // let the PDF viewer paint before the screenshot
  await page.screenshot({ path: `${SHOTS}/11-pdf-preview.png` });
  await page.keyboard.press("Escape");
  await expect(pdf).toBeHidden();
});

test("a folder larger than one list page: load more, filter and sort across what is loaded", async ({ page }) => {
  const folder = `many-${Date.now()}`;
  const names = Array.from({ length: 205 }, (_, i) => `file-${String(i).padStart(3, "0")}.txt`);
  for (let i = 0; i < names.length; i += 25) {
    await Promise.all(
      names.slice(i, i + 25).map(async (name) => {
        const form = new FormData();
        form.append("key", `${folder}/${name}`);
        form.append("file", new Blob([name], { type: "text/plain" }), name);
        const res = await serviceCall("/v0/storage/object/public-assets", undefined, { method: "POST", body: form });
        expect(res.status).toBe(200);
      }),
    );
  }
  // A sub-folder whose name sorts after every file: shown with the first page, not after Load more.
  const inner = new FormData();
  inner.append("key", `${folder}/zz-sub/inner.txt`);
  inner.append("file", new Blob(["inner"], { type: "text/plain" }), "inner.txt");
  expect((await serviceCall("/v0/storage/object/public-assets", undefined, { method: "POST", body: inner })).status).toBe(200);
  await page.goto(`/storage/public-assets?folder=${folder}`);
  await page.getByRole("button", { name: "List view" }).click();
  await expect(page.getByText("200 files loaded so far")).toBeVisible();
  await expect(page.getByRole("button", { name: "Open folder zz-sub" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Preview file-204.txt" })).toHaveCount(0);
  await page.getByRole("button", { name: "Load more" }).press("Enter");
  await expect(page.getByText("1 folder, 205 files", { exact: true })).toBeVisible();
  // The keyboard goes on at the first row just loaded (the button itself is gone).
  await expect(page.getByRole("button", { name: "Preview file-200.txt" })).toBeFocused();
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  // The listing scrolls by itself (the header, toolbar and upload panel stay put).
  await page.getByRole("region", { name: /^Files in/ }).hover();
  // Wheel until the count under the listing shows (a wheel event scrolls a bounded distance).
  await expect(async () => {
    await page.mouse.wheel(0, 5_000);
    await expect(page.getByText("1 folder, 205 files", { exact: true })).toBeInViewport({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
  expect(await page.locator(".st-scroll").evaluate((e) => e.scrollTop)).toBeGreaterThan(0);
  await page.screenshot({ path: `${SHOTS}/12a-paged-scrolled.png` });
  await page.getByRole("button", { name: "Sort by name" }).click();
  await expect(page.getByRole("button", { name: /^Preview / }).first()).toHaveAccessibleName("Preview file-204.txt");
  await page.getByRole("searchbox", { name: "Filter by name" }).fill("-20");
  await expect(page.getByRole("button", { name: /^Preview / })).toHaveCount(5);
  await page.screenshot({ path: `${SHOTS}/12-paged-filtered.png` });
  // The folder is in the URL: a reload lands in the same place.
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Folder path" })).toContainText(folder);
});

test("catalog images: keyboard into the lightbox, Left/Right between images, Escape", async ({ page }) => {
  await page.goto("/storage/public-assets?folder=catalog");
  await page.getByRole("button", { name: "Grid view" }).click();
  const first = page.getByRole("button", { name: /^Preview .*\.(png|jpe?g)$/ }).first();
  await expect.poll(() => first.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  // The name is written beside the thumbnail: its image is not named again (axe: image-redundant-alt).
  await expect(first.locator("img")).toHaveAttribute("alt", "");
  await page.screenshot({ path: `${SHOTS}/12b-catalog-grid.png` });
  const firstName = ((await first.getAttribute("aria-label")) ?? "").replace(/^Preview /, "");
  await first.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: firstName })).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("dialog", { name: firstName })).toBeHidden();
  const second = page.getByRole("dialog");
  await expect(second.getByRole("img")).toBeVisible();
  await expect(second).toContainText("2 of");
  await page.screenshot({ path: `${SHOTS}/13-catalog-lightbox.png` });
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("dialog", { name: firstName })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(first).toBeFocused();
  // Closed on another image: the focus goes to that image's card, not the one it opened from.
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowRight");
  const shown = ((await page.getByRole("dialog").getAttribute("aria-label")) ?? (await page.getByRole("dialog").locator("h2").first().textContent()) ?? "").trim();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: `Preview ${shown}` })).toBeFocused();
});

test("an image the browser cannot draw (TIFF) gets an icon and a message, not a broken image", async ({ page }) => {
  const folder = `tiff-${Date.now()}`;
  const tif = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 10, g: 150, b: 90 } } }).tiff().toBuffer();
  await page.goto(`/storage/public-assets?folder=${folder}`);
  await dropFiles(page, dropzone(page), [{ name: "scan.tif", type: "image/tiff", b64: tif.toString("base64") }]);
  const open = page.getByRole("button", { name: "Preview scan.tif" });
  // The thumbnail falls back to the file icon once the browser fails to decode it.
  await expect(open.locator("img")).toHaveCount(0);
  await open.click();
  const box = page.getByRole("dialog", { name: "scan.tif" });
  await expect(box.getByRole("status")).toContainText("This browser cannot show this image (TIF image)");
  await expect(box.getByRole("link", { name: "Download scan.tif" })).toBeVisible();
});

test("at 1024×768 the list gives the names their room: short names show whole", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto("/storage/public-assets?folder=catalog");
  const names = page.locator(".st-table .st-name");
  await expect(names.filter({ hasText: "plant.png" })).toBeVisible();
  const cut = () => names.evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent));
  expect(await cut()).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/14-catalog-1024.png` });
  // Also beside the details panel, which takes 360 px of the same width.
  await page.getByRole("button", { name: "Details of plant.png" }).click();
  await expect(page.getByRole("complementary", { name: "plant.png" })).toBeVisible();
  expect(await cut()).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/14a-catalog-1024-details.png` });
  // Closed (Escape or ×): the focus goes back to the Details button (it fell to the page).
  await page.getByRole("complementary", { name: "plant.png" }).getByRole("button", { name: "Close the details" }).press("Enter");
  await expect(page.getByRole("complementary", { name: "plant.png" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Details of plant.png" })).toBeFocused();
  // At 800 px there is no room beside the listing: the details are a sheet over the listing alone,
  // below the bucket's toolbar (review 48b #4: over half the rows' buttons; then over the header).
  await page.setViewportSize({ width: 800, height: 768 });
  await page.getByRole("button", { name: "Details of plant.png" }).click();
  const sheet = (await page.getByRole("complementary", { name: "plant.png" }).boundingBox())!;
  const toolbar = (await page.locator(".st-toolbar").boundingBox())!;
  expect(sheet.y).toBeGreaterThanOrEqual(toolbar.y + toolbar.height - 1);
  expect(sheet.width).toBeGreaterThan(700);
  await expect(page.getByRole("button", { name: "Upload files" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/14b-catalog-800-details.png` });
});

test("a deep or long folder path keeps the toolbar on screen: the path gives way, not Upload files", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 850 });
  const deep = "customer-projects/acme-corporation-2026/quarterly-reports/finance-department/final-review/";
  const long = `${"x".repeat(101)}/`;
  for (const folder of [deep, long]) {
    await page.goto(`/storage/team-files?folder=${encodeURIComponent(folder)}`);
    await expect(page.getByRole("navigation", { name: "Folder path" })).toBeVisible();
    for (const name of ["Upload files", "New folder"]) await expect(page.getByRole("button", { name })).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    await page.screenshot({ path: `${SHOTS}/${folder === deep ? "deep" : "long"}-path-header.png` });
  }
});

test("arrow keys move between a listing's entries: the same control above or below, Home and End; cards by line", async ({ page }) => {
  await page.goto("/storage/public-assets?folder=catalog");
  await page.getByRole("button", { name: "List view" }).click();
  const names = page.locator("tbody tr [data-entry-main]");
  await expect(names.nth(2)).toBeVisible();
  const labels = await names.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
  await names.first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(names.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  await expect(names.nth(1)).toBeFocused();
  await page.keyboard.press("End");
  await expect(names.last()).toBeFocused();
  await page.keyboard.press("Home");
  await expect(names.first()).toBeFocused();
  // From a row's checkbox, to the next row's checkbox.
  const boxes = page.locator("tbody tr input[type=checkbox]");
  await boxes.first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(boxes.nth(1)).toBeFocused();
  await expect(boxes.nth(1)).not.toBeChecked();

  // Cards: Right is the next card, Down the card one line below.
  await page.getByRole("button", { name: "Grid view" }).click();
  const cards = page.locator("li.st-card [data-entry-main]");
  await expect(cards.nth(1)).toBeVisible();
  await cards.first().focus();
  await page.keyboard.press("ArrowRight");
  await expect(cards.nth(1)).toHaveAttribute("aria-label", labels[1] ?? "");
  await expect(cards.nth(1)).toBeFocused();
  const perLine = await page.locator("li.st-card").evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetTop === (els[0] as HTMLElement).offsetTop).length);
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowDown");
  const count = await cards.count();
  await expect(cards.nth(Math.min(perLine, count - 1))).toBeFocused();
});

test("a folder slow to list says it is waiting, and for how long, then shows its files (review 53b #11)", async ({ page }) => {
  let held = 0;
  await page.route(/\/api\/v0\/storage\/list\/public-assets\?/, async (route) => {
    held++;
    await new Promise((r) => setTimeout(r, 4500));
    await route.continue();
  });
  await page.goto("/storage/public-assets?folder=catalog/");
  const wait = page.getByRole("status").filter({ hasText: "Listing catalog…" });
  await expect(wait).toBeVisible();
  await expect(wait).not.toContainText("slow");
  await expect(wait).toContainText("The service is slow to answer; still waiting", { timeout: 4000 });
  await expect(wait).toContainText(/\(\d+ s so far\)/);
  await page.screenshot({ path: "test-results/storage-slow-listing.png" });
  await expect(page.getByText("chair.png")).toBeVisible({ timeout: 10_000 });
  await expect(wait).toHaveCount(0);
  expect(held).toBeGreaterThan(0);
});
