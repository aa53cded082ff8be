/**
 * Axe's serious and critical violations on a page, or only within `include` (an overlay over a
 * page already checked), each as "rule (impact) at its elements".
 *
 * Run in the page itself (legacy mode) and reporting only violations in full: the default runs
 * each frame's part, then opens a blank page to finish, and sends every passing node back. Over
 * the grid with its panel that took 4.8–5.6 s a run on this machine against 0.8–1.0 s so, with
 * the same violations found (checked on a page with a planted one of each kind). The app has
 * no frames from another origin, which is what the default mode is for.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });
  const result = await (include ? builder.include(include) : builder).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
