/**
 * The overlays' chunk (menus, paste preview, export, import, saved views) is asked for when the
 * user first clicks in the grid or presses a key there, since a paste or a menu usually follows;
 * otherwise the first Ctrl+V or right-click waited for it to load and compile. The first screen
 * is not affected: nothing is fetched before such a click or key (the grid takes focus on load,
 * so focus is not the signal).
 */
let asked = false;

export function preloadOverlays(): void {
  if (asked) return;
  asked = true;
  void import("./RecordsOverlays");
}
