/** The keyboard shortcuts, listed once: the help overlay and the README show this list. */
export const shortcuts: { keys: string[]; what: string; where: string }[] = [
  { keys: ["?"], what: "Show or hide this help", where: "Anywhere" },
  { keys: ["Ctrl/⌘", "Z"], what: "Undo the last edit or bulk update", where: "Records" },
  { keys: ["Ctrl/⌘", "Shift", "Z"], what: "Redo", where: "Records" },
  { keys: ["Ctrl/⌘", "Enter"], what: "Apply the filter", where: "Filter builder" },
  { keys: ["←", "↑", "→", "↓"], what: "Move between cells", where: "Grid" },
  { keys: ["Home", "End"], what: "First / last cell of the row (with Ctrl: of the page)", where: "Grid" },
  { keys: ["PageUp", "PageDown"], what: "Move 15 rows up / down", where: "Grid" },
  { keys: ["Enter"], what: "Edit the cell (or F2, double-click, or just start typing)", where: "Grid" },
  { keys: ["Enter"], what: "Save and move down", where: "Cell editor" },
  { keys: ["Tab"], what: "Save and move right (Shift: left)", where: "Cell editor" },
  { keys: ["Esc"], what: "Cancel the edit, close a dialog", where: "Cell editor, dialogs" },
  { keys: ["Space"], what: "Select or unselect the row (with Shift: a range)", where: "Grid" },
  { keys: ["Shift", "click"], what: "Select a range of rows / add a sort column", where: "Grid" },
  { keys: ["[", "]"], what: "Previous / next page", where: "Grid" },
];

/** Typing in a field must never trigger a global shortcut. */
export function isTypingTarget(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  return t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName);
}
