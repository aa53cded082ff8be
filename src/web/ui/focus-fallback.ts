/**
 * Where the focus goes when the control that had it went away (a dialog's opener deleted with
 * what it acted on, a toast closed by its own button): never the page itself, where Esc and
 * the shortcuts reach nothing. The grid's active cell when there is a grid, a bucket listing's first
 * entry when there is one, else the main region.
 */
export const focusFallback = (): HTMLElement | null =>
  document.querySelector<HTMLElement>('[role="grid"] [role="gridcell"][tabindex="0"]') ??
  // A bucket's listing: its first entry (review 30b #1: after a bulk delete, Esc left the main region).
  document.querySelector<HTMLElement>(".st-browser [data-entry-main]") ??
  document.getElementById("main");

/** After the current frame: if the focus fell to the page, to `fallback` (default: focusFallback). */
export function refocusIfLost(fallback: () => HTMLElement | null | undefined = focusFallback): void {
  requestAnimationFrame(() => {
    if (!document.activeElement || document.activeElement === document.body) fallback()?.focus();
  });
}
