/**
 * Says a short text to screen readers through one polite live region, for a change that has no
 * words of its own on screen (a column's width set from the keyboard: review 55b #3). The region
 * is made on first use and kept; the text is set on the next frame, so the same words twice are
 * said twice.
 */
let region: HTMLElement | undefined;

export function announce(text: string): void {
  if (!region?.isConnected) {
    region = document.createElement("div");
    region.className = "sr-only";
    region.setAttribute("role", "status");
    region.dataset.announcer = "";
    document.body.append(region);
  }
  const r = region;
  r.textContent = "";
  requestAnimationFrame(() => {
    r.textContent = text;
  });
}
