/**
 * Resumable uploads in a real Chromium (issue 22.5), against a launcher of its own (the default
 * stack's 5 MiB limit is below one part): a 20 MB file goes in 8 MiB parts; the later parts are
 * cut off by the network, the upload fails, the page is reloaded, and the same file dropped
 * again resumes: the row says where it resumed, only the missing parts are sent, and the stored
 * file reads back identical. Then: offline mid-upload, it goes on by itself once back online;
 * Cancel aborts the session on the service.
 */
import { createHash } from "node:crypto";
import { type Page, expect, test } from "@playwright/test";
import { dropzone, uploadRow } from "./testing/storage";
import { teamUrl, useTeamStack } from "./testing/team";

useTeamStack((s) => {
  s.env = { SERVICE_MAX_UPLOAD_BYTES: String(64 * 1024 * 1024) };
});

const SIZE = 20 * 1024 * 1024 + 4321;
const PART = 8 * 1024 * 1024;
const LAST_MODIFIED = 1_700_000_000_000;

/** The same pseudo-random bytes in the page and here (xorshift32). */
function content(size: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = 2463534242;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
  }
  return out;
}

/** Drops the file (built in the page: 20 MB does not travel well through the protocol). */
async function dropBigFile(page: Page, name: string) {
  const dt = await page.evaluateHandle(
    ({ name, size, lastModified }) => {
      // content() again, inline: the page's CSP allows no eval of a passed function.
      const bytes = new Uint8Array(size);
      let x = 2463534242;
      for (let i = 0; i < size; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        bytes[i] = x & 255;
      }
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type: "application/octet-stream", lastModified }));
      return dt;
    },
    { name, size: SIZE, lastModified: LAST_MODIFIED },
  );
  const zone = dropzone(page);
  await zone.dispatchEvent("dragenter", { dataTransfer: dt });
  await zone.dispatchEvent("dragover", { dataTransfer: dt });
  await zone.dispatchEvent("drop", { dataTransfer: dt });
}

test("an upload cut off mid-way resumes from the last acknowledged part when the same file is dropped again", async ({ page }) => {
  test.setTimeout(120_000);
  const name = `resume-${Date.now()}.bin`;
  const sent: number[] = [];
  page.on("requestfinished", (r) => {
    const m = /\/api\/v0\/storage\/uploads\/public-assets\/[^/]+\/parts\/(\d+)$/.exec(r.url());
    if (m && r.method() === "PUT") sent.push(Number(m[1]));
  });

  // First attempt: parts 2 and 3 never get through (the network drops them); part 1 does.
  await page.route(/\/parts\/[23]$/, (route) => route.abort("connectionreset"));
  await page.goto(`${teamUrl}/storage/public-assets`);
  await expect(page.getByRole("heading", { name: "public-assets", level: 1 })).toBeVisible();
  await dropBigFile(page, name);
  const row = uploadRow(page, name);
  await expect(row).toHaveAttribute("data-status", "error", { timeout: 30_000 });
  await expect(row.getByRole("alert")).toContainText("could not be reached while part");
  expect(sent).toEqual([1]);
  await page.screenshot({ path: "test-results/storage-resume-1-cut.png" });

  // A reload forgets the queue; the browser remembers the session. The network is back.
  await page.unroute(/\/parts\/[23]$/);
  await page.reload();
  await expect(page.getByRole("heading", { name: "public-assets", level: 1 })).toBeVisible();
  await expect(uploadRow(page, name)).toHaveCount(0);
  // The page says an upload did not finish, how far it got, and how to go on (reviews 28b #14, 30b).
  const unfinished = page.getByRole("region", { name: "Unfinished uploads" });
  await expect(unfinished).toContainText(`${name} (20 MiB; 8 MiB stored). Drop or choose the same file here again to go on from there.`);
  await page.screenshot({ path: "test-results/storage-resume-1b-unfinished.png" });
  sent.length = 0;
  await dropBigFile(page, name);
  const again = uploadRow(page, name);
  await expect(again).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(unfinished).toHaveCount(0);
  await expect(again).toContainText(`Resumed at ${Math.round((PART / SIZE) * 100)}%`);
  await page.screenshot({ path: "test-results/storage-resume-2-resumed.png" });
  // Only the parts the service did not have were sent.
  expect(sent.sort()).toEqual([2, 3]);

  // The newest version of the key is the resumed upload (the row no longer shows internal keys).
  const res = await fetch(`${teamUrl}/api/v0/storage/public/public-assets/${name}`);
  expect(res.status).toBe(200);
  const got = Buffer.from(await res.arrayBuffer());
  const expected = createHash("sha256").update(content(SIZE)).digest("hex");
  expect(got.length).toBe(SIZE);
  expect(createHash("sha256").update(got).digest("hex")).toBe(expected);
  expect(res.headers.get("etag")).toBe(`"${expected}"`);
});

test("an upload cut off while Baseboard's server cannot be reached goes on by itself once it answers again", async ({ page }) => {
  // Review 46b #2: after the server's restart the row waited for Retry, and a second box beside it
  // said to drop the file again.
  test.setTimeout(120_000);
  const name = `outage-${Date.now()}.bin`;
  const sent: number[] = [];
  page.on("requestfinished", (r) => {
    const m = /\/parts\/(\d+)$/.exec(r.url());
    if (m && r.method() === "PUT") sent.push(Number(m[1]));
  });
  await page.goto(`${teamUrl}/storage/public-assets`);
  await expect(page.getByRole("heading", { name: "public-assets", level: 1 })).toBeVisible();
  // The server goes away as part 2 is sent: from then nothing of /api answers (the badge sees it
  // too). Set by the request itself, not by part 1's answer: parts go in parallel, and all three
  // could be through before that answer came (the upload then never failed).
  let down = false;
  let wentDown = false;
  await page.route(/\/api\//, (route) => {
    if (!wentDown && /\/parts\/[23]$/.test(route.request().url())) down = wentDown = true;
    return down ? route.abort("connectionrefused") : route.continue();
  });
  await dropBigFile(page, name);
  const row = uploadRow(page, name);
  await expect(row).toHaveAttribute("data-status", "error", { timeout: 30_000 });
  await expect(row.getByRole("alert")).toContainText("goes on by itself from there when it answers again");
  await expect(page.getByRole("region", { name: "Unfinished uploads" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/storage-resume-outage.png" });
  down = false;
  await expect(row).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  // Each part stored once: the ones stored before the outage were not sent again.
  expect(sent.sort()).toEqual([1, 2, 3]);
  const res = await fetch(`${teamUrl}/api/v0/storage/public/public-assets/${name}`);
  expect(createHash("sha256").update(Buffer.from(await res.arrayBuffer())).digest("hex")).toBe(createHash("sha256").update(content(SIZE)).digest("hex"));
});

test("a part cut off by the network going away is sent again by itself when the browser is back online", async ({ page, context }) => {
  test.setTimeout(120_000);
  const name = `online-${Date.now()}.bin`;
  const sent: number[] = [];
  let firstDone!: () => void;
  const firstAcknowledged = new Promise<void>((resolve) => (firstDone = resolve));
  page.on("requestfinished", async (r) => {
    const m = /\/parts\/(\d+)$/.exec(r.url());
    if (!m || r.method() !== "PUT") return;
    sent.push(Number(m[1]));
    if ((await r.response())?.status() === 200) firstDone();
  });
  // Hold part 2 back until the browser has gone offline, so that it is the part the network cuts.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  await page.route(/\/parts\/2$/, async (route) => {
    if (!held) {
      held = true;
      await released;
      return route.abort("internetdisconnected");
    }
    return route.continue();
  });
  await page.goto(`${teamUrl}/storage/public-assets`);
  await expect(page.getByRole("heading", { name: "public-assets", level: 1 })).toBeVisible();
  await dropBigFile(page, name);
  const row = uploadRow(page, name);
  await firstAcknowledged;
  await context.setOffline(true);
  release();
  // Offline, the upload waits (it does not fail) and says so, counting only what the service
  // has (part 1, and part 3 if it got through): not the bytes of the parts the network cut off.
  await expect(row).toContainText(/Waiting for the connection \((40|80)% stored\)/);
  await expect(page.getByRole("region", { name: "Uploads" })).toContainText("Offline: 1 upload will go on when the connection is back");
  await page.screenshot({ path: "test-results/storage-resume-3-offline.png" });
  await page.waitForTimeout(1500);
  await expect(row).toHaveAttribute("data-status", "uploading");
  await context.setOffline(false);
  await expect(row).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  // Where it went on from, as for an upload resumed by dropping the file again (review 51b #6).
  await expect(row).toContainText(/Resumed at (40|80)%/);
  expect(sent.filter((n) => n === 1)).toHaveLength(1);
  const res = await fetch(`${teamUrl}/api/v0/storage/public/public-assets/${name}`);
  expect(createHash("sha256").update(Buffer.from(await res.arrayBuffer())).digest("hex")).toBe(createHash("sha256").update(content(SIZE)).digest("hex"));
});

test("cancel aborts the session on the service and forgets it in the browser", async ({ page }) => {
  const name = `cancel-${Date.now()}.bin`;
  // Part 2 hangs, so the upload is still in flight when Cancel is pressed.
  await page.route(/\/parts\/2$/, () => undefined);
  await page.goto(`${teamUrl}/storage/public-assets`);
  await expect(page.getByRole("heading", { name: "public-assets", level: 1 })).toBeVisible();
  await dropBigFile(page, name);
  const row = uploadRow(page, name);
  await expect(row).toHaveAttribute("data-status", "uploading");
  const remembered = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("baseboard.upload:")).map((k) => JSON.parse(localStorage.getItem(k)!).id as string));
  await expect.poll(remembered).toHaveLength(1);
  const [id] = await remembered();
  const session = () => fetch(`${teamUrl}/api/v0/storage/uploads/public-assets/${id}`).then((r) => r.status);
  expect(await session()).toBe(200);
  await row.getByRole("button", { name: `Cancel upload of ${name}` }).click();
  await expect(row).toHaveAttribute("data-status", "cancelled");
  await expect.poll(session).toBe(404);
  expect(await remembered()).toEqual([]);
});

test("an unfinished upload can be discarded: its session ends on the service and it is listed no more", async ({ page }) => {
  test.setTimeout(60_000);
  const name = `discard-${Date.now()}.bin`;
  let session = "";
  page.on("requestfinished", async (r) => {
    if (r.method() === "POST" && /\/api\/v0\/storage\/uploads\/public-assets$/.test(r.url())) session = ((await (await r.response())?.json()) as { id: string }).id;
  });
  await page.route(/\/parts\/[23]$/, (route) => route.abort("connectionreset"));
  await page.goto(`${teamUrl}/storage/public-assets`);
  await dropBigFile(page, name);
  await expect(uploadRow(page, name)).toHaveAttribute("data-status", "error", { timeout: 30_000 });
  await page.unroute(/\/parts\/[23]$/);
  await page.reload();
  const unfinished = page.getByRole("region", { name: "Unfinished uploads" });
  await unfinished.getByRole("button", { name: `Discard the unfinished upload of ${name}` }).click();
  await expect(page.getByText(`Discarded the unfinished upload of ${name}`)).toBeVisible();
  await expect(unfinished).toHaveCount(0);
  // The button went with its notice: the focus is in the page's content, not on the page itself.
  await expect.poll(() => page.evaluate(() => document.activeElement !== null && document.activeElement !== document.body)).toBe(true);
  expect(session).not.toBe("");
  expect((await page.request.get(`${teamUrl}/api/v0/storage/uploads/public-assets/${session}`, { headers: { "x-baseboard-client": "1" } })).status()).toBe(404);
  await page.reload();
  await expect(page.getByRole("heading", { name: "public-assets", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Unfinished uploads" })).toHaveCount(0);
});
