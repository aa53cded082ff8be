/**
 * The grid and what shows in its place (a page past the end, no match, loading) replace each
 * other when rows come and go: deleting every Record of a page, or undoing that. The focus was
 * then on a node that went away, and fell to the page (a new user's check). Whichever leaves
 * notes that it held the focus; whichever comes takes it.
 */
let held = false;

/** Called as the grid or its placeholder goes (before its nodes are removed). */
export function noteLeaving(el: HTMLElement | null): void {
  held = !!el && el.contains(document.activeElement);
}

/** Called as the other one comes: `target` takes the focus if the one that left had it and nothing else took it since. */
export function takeOver(target: HTMLElement | null | undefined): void {
  if (!held) return;
  held = false;
  if (!document.activeElement || document.activeElement === document.body) target?.focus();
}
