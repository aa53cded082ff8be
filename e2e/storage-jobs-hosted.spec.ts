/**
 * Against an upstream without jobs (SERVICE_PROFILE=interface, issue 22.2): Move stays visible
 * but disabled, and its tooltip says why; pressing it opens nothing.
 */
import { expect, test } from "@playwright/test";
import { useHostedStack } from "./testing/hosted";
import { dropFiles, dropzone, uploadRow } from "./testing/storage";

useHostedStack();

test("move is disabled with the reason when the upstream has no jobs", async ({ page }) => {
  await page.goto("/storage/team-files?folder=nojobs");
  await dropFiles(page, dropzone(page), [{ name: "n.txt", type: "text/plain", b64: Buffer.from("n").toString("base64") }]);
  await expect(uploadRow(page, "nojobs/n.txt")).toHaveAttribute("data-status", "done");
  const move = page.getByRole("button", { name: "Move, rename or copy n.txt" }).first();
  await expect(move).toHaveAttribute("aria-disabled", "true");
  await expect(move).toHaveAttribute("title", /server-side jobs, and this upstream has none/);
  await move.dispatchEvent("click");
  await expect(page.getByRole("dialog", { name: /Move, rename or copy/ })).toHaveCount(0);
});
