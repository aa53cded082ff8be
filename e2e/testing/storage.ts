/** Helpers of the storage end-to-end tests: real drag-and-drop, listing through the service. */
import { type JSHandle, type Locator, type Page, expect } from "@playwright/test";
import { serviceCall } from "./service";

export const SHOTS = process.env.E2E_SHOTS ?? "/tmp/shots-web-storage";

export interface DropFile {
  name: string;
  type: string;
  /** Base64 content, or a size to fill with zeros in the page (large files). */
  b64?: string;
  zeros?: number;
}

async function dataTransfer(page: Page, files: DropFile[]): Promise<JSHandle<DataTransfer>> {
  return page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = f.b64 ? Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0)) : new Uint8Array(f.zeros ?? 0);
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, files);
}

/** A real drag-and-drop as the browser delivers it: dragenter, dragover, drop with the files. */
export async function dropFiles(page: Page, zone: Locator, files: DropFile[], shotWhileDragging?: string): Promise<void> {
  const dt = await dataTransfer(page, files);
  await zone.dispatchEvent("dragenter", { dataTransfer: dt });
  await zone.dispatchEvent("dragover", { dataTransfer: dt });
  if (shotWhileDragging) {
    await expect(page.getByText(/^Drop to upload into/)).toBeVisible();
    await page.screenshot({ path: shotWhileDragging });
  }
  await zone.dispatchEvent("drop", { dataTransfer: dt });
}

export async function listKeys(bucket: string, prefix: string): Promise<string[]> {
  const res = await serviceCall(`/v0/storage/list/${bucket}?prefix=${encodeURIComponent(prefix)}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { items: { key: string }[] };
  return body.items.map((i) => i.key);
}

export const dropzone = (page: Page) => page.getByRole("region", { name: /^Files in/ });
export const uploadRow = (page: Page, key: string) => page.getByRole("listitem", { name: `Upload of ${key}` });

/** Puts a small text file straight into the service (not through the app). */
export async function putText(bucket: string, key: string, text: string): Promise<void> {
  const form = new FormData();
  form.append("key", key);
  form.append("file", new Blob([text], { type: "text/plain" }), "f.txt");
  const res = await serviceCall(`/v0/storage/object/${bucket}`, undefined, { method: "POST", body: form });
  expect(res.status).toBe(200);
}

/** Screenshots of what is on screen at the reviewed widths, 1440×900 then 1024×768 (the viewport stays at the last). */
export async function shootBoth(page: Page, name: string): Promise<void> {
  for (const [width, height] of [[1440, 900], [1024, 768]]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
}
