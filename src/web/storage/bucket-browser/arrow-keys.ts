/**
 * Arrow keys between a listing's entries: Up and Down move to the same control of the row above
 * or below (its checkbox, its name, an action), Home and End to the first and last; in the card
 * view Left and Right move one card, Up and Down one line of cards. Tab still walks every
 * control; the arrows spare a keyboard user the ten stops of each row.
 */
export const ROW = "tbody tr, li.st-card";
export const FOCUSABLE = "button:not([disabled]), a[href], input:not([disabled]), [tabindex]:not([tabindex='-1'])";

/** Moves the focus for `key` from `target`; true when the key was used. */
export function moveByArrow(target: HTMLElement, key: string): boolean {
  const row = target.closest<HTMLElement>(ROW);
  if (!row?.parentElement) return false;
  const rows = [...row.parentElement.children].filter((r): r is HTMLElement => r instanceof HTMLElement && r.matches(ROW));
  const at = rows.indexOf(row);
  const cards = row.matches("li.st-card");
  // Cards per line: those laid out at the first card's height.
  const perLine = cards ? Math.max(1, rows.filter((r) => r.offsetTop === rows[0].offsetTop).length) : 1;
  const to =
    key === "ArrowDown" ? at + perLine
    : key === "ArrowUp" ? at - perLine
    : key === "Home" ? 0
    : key === "End" ? rows.length - 1
    : cards && key === "ArrowRight" ? at + 1
    : cards && key === "ArrowLeft" ? at - 1
    : undefined;
  if (to === undefined) return false;
  const next = rows[Math.max(0, Math.min(rows.length - 1, to))];
  if (!next || next === row) return true;
  // The same control: the same position among the row's focusable controls.
  const mine = [...row.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const theirs = [...next.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const i = mine.findIndex((el) => el === target || el.contains(target));
  (theirs[Math.min(Math.max(i, 0), theirs.length - 1)] ?? next.querySelector<HTMLElement>("[data-entry-main]"))?.focus();
  return true;
}
