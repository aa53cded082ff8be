/** The keyboard shortcuts, listed once: the help overlay and the README show this list. */
export const shortcuts: { keys: string[]; what: string; where: string }[] = [
  { keys: ["?"], what: "Show or hide this help", where: "Anywhere" },
  { keys: ["Ctrl/⌘", "Z"], what: "Undo the last edit or bulk update", where: "Records (grid and record panel)" },
  { keys: ["Ctrl/⌘", "Shift", "Z"], what: "Redo (or Ctrl/⌘+Y)", where: "Records" },
  { keys: ["Ctrl/⌘", "Enter"], what: "Apply the filter", where: "Filter builder" },
  { keys: ["Ctrl/⌘", "Shift", "Enter"], what: "Add a Record (the Add Record form)", where: "Records" },
  { keys: ["Ctrl/⌘", "Enter"], what: "Add the Record (or Enter)", where: "Add Record form" },
  { keys: ["Enter"], what: "Add the Record typed into the blank row", where: "Blank row" },
  { keys: ["Esc"], what: "Empty the blank row", where: "Blank row" },
  { keys: ["←", "↑", "→", "↓"], what: "Move between cells", where: "Grid" },
  { keys: ["Home", "End"], what: "First / last cell of the row (with Ctrl: of the page)", where: "Grid" },
  { keys: ["PageUp", "PageDown"], what: "Move 15 rows up / down", where: "Grid" },
  { keys: ["Enter"], what: "Edit the cell (or F2, double-click, or just start typing)", where: "Grid" },
  { keys: ["Enter"], what: "Save and move down", where: "Cell editor" },
  { keys: ["Tab"], what: "Save and move right (Shift: left)", where: "Cell editor" },
  { keys: ["Esc"], what: "Cancel the edit, close a dialog", where: "Cell editor, dialogs" },
  { keys: ["Space"], what: "Open the Record in the side panel (on the checkbox: select the row; with Shift: a range)", where: "Grid" },
  { keys: ["Shift", "Enter"], what: "Open the Record in the side panel", where: "Grid" },
  { keys: ["Shift", "Space"], what: "Select the row (after another one: every row between)", where: "Grid" },
  { keys: ["Shift", "←↑→↓"], what: "Select a range of cells (or Shift+click)", where: "Grid" },
  { keys: ["Ctrl/⌘", "C"], what: "Copy the cell or the selected cells as TSV", where: "Grid" },
  { keys: ["Ctrl/⌘", "V"], what: "Paste TSV at the cursor (a preview comes first)", where: "Grid" },
  { keys: ["Shift", "F10"], what: "Cell or column menu (or the Menu key, or right-click)", where: "Grid" },
  { keys: ["Delete"], what: "Clear the cell or the selected cells (or Backspace; a preview comes first)", where: "Grid" },
  { keys: ["Ctrl/⌘", "D"], what: "Fill the selected cells down from their top row", where: "Grid" },
  { keys: ["Delete"], what: "Delete the selected Records (on a row's checkbox)", where: "Grid" },
  { keys: ["←", "→"], what: "Move between column headers", where: "Column header" },
  { keys: ["Enter"], what: "Sort by the column (Shift: add it as a further sort)", where: "Column header" },
  { keys: ["Alt", "←", "→"], what: "Narrower / wider column (Shift too: by 50 px)", where: "Column header" },
  { keys: ["Alt", "↑", "↓"], what: "Previous / next Record", where: "Record panel" },
  { keys: ["Ctrl/⌘", "S"], what: "Save the Record (or Ctrl/⌘+Enter)", where: "Record panel" },
  { keys: ["Shift", "click"], what: "Select a range of rows / add a sort column", where: "Grid" },
  { keys: ["[", "]"], what: "Previous / next page", where: "Grid" },
  { keys: ["←", "→"], what: "Previous / next image", where: "Storage lightbox" },
  { keys: ["Esc"], what: "Close the lightbox; clear the name filter; clear the selection", where: "Storage" },
  { keys: ["↑", "↓"], what: "The same control of the entry above / below (cards: ← → too)", where: "Storage listing" },
  { keys: ["Home", "End"], what: "First / last entry", where: "Storage listing" },
  { keys: ["Ctrl/⌘", "A"], what: "Select every entry shown (again: none)", where: "Storage listing" },
  { keys: ["F2"], what: "Move, rename or copy the entry", where: "Storage listing" },
];

/** Input types that take typed text; a checkbox, radio or button does not. */
const TEXT_INPUT_TYPES = new Set(["", "text", "search", "email", "url", "tel", "password", "number", "date", "datetime-local", "time", "month", "week"]);

/**
 * Typing in a field must never trigger a global shortcut; a focused checkbox or button must not
 * swallow one either (structural check, so it also works outside a browser).
 */
export function isTypingTarget(t: EventTarget | null): boolean {
  const el = t as { tagName?: unknown; type?: unknown; isContentEditable?: boolean } | null;
  if (!el || typeof el.tagName !== "string") return false;
  if (el.isContentEditable) return true;
  if (el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
  return el.tagName === "INPUT" && TEXT_INPUT_TYPES.has(String(el.type ?? "").toLowerCase());
}
