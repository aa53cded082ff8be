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

/**
 * The one rescue for a focused element taken out of the page (a row deleted here or by someone
 * else, a selection bar gone with its selection, a dialog's opener that left a render after the
 * dialog gave it the focus back): the focus goes to focusFallback, not to the page. Listened to
 * natively on the document: React passes on no blur from a node it is taking out. An element
 * still in the page lost the focus to a click elsewhere: left alone. Places that know better go
 * first: a bucket listing (the same control of the entry now in its place) in a layout effect, a
 * closing dialog's own fallback and the filter builder with refocusIfLost, one frame ahead of
 * this look, which waits two (a dialog's cleanup schedules its look after the focusout that
 * brings this one, so one frame each let this one win). Inside an open modal the page behind
 * is inert: left to the dialog, which watches its own content (Dialog.tsx).
 */
export function listenForLostFocus(): () => void {
  const onOut = (e: FocusEvent) => {
    if (e.relatedTarget !== null) return;
    const from = e.target;
    if (!(from instanceof Element)) return;
    const look = () => {
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (!lost || from.isConnected) return;
      // Inside an open modal the page behind is inert: the dialog keeps its own (Dialog.tsx).
      if (!document.querySelector("dialog[open]")) focusFallback()?.focus();
    };
    requestAnimationFrame(() => requestAnimationFrame(look));
  };
  document.addEventListener("focusout", onOut);
  return () => document.removeEventListener("focusout", onOut);
}

const IN_DIALOG = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The dialog's first control that takes the focus (its marked one first), else the dialog itself.
 * Tried one by one: a control can match and still refuse it (a radio in a disabled fieldset, as
 * Export's format while it runs: review 35b #1).
 */
export function focusInDialog(dialog: HTMLDialogElement): void {
  const marked = dialog.querySelectorAll<HTMLElement>("[data-autofocus]");
  for (const el of [...marked, ...dialog.querySelectorAll<HTMLElement>(IN_DIALOG)]) {
    el.focus();
    if (document.activeElement === el) return;
  }
  if (!dialog.hasAttribute("tabindex")) dialog.tabIndex = -1;
  dialog.focus();
}

/**
 * Where the focus goes back to after a toast's action (the toast is gone with its button): an
 * open side panel's marked control (`data-focus-home`: the record panel's tab), where the person
 * was working, else focusFallback (review 51b #5: Undo of a panel's Restore left the focus on
 * the grid's first cell, the panel still open).
 */
export const focusHome = (): HTMLElement | null => document.querySelector<HTMLElement>("[data-focus-home]") ?? focusFallback();

/** After the current frame: if the focus fell to the page, to `fallback` (default: focusFallback). */
export function refocusIfLost(fallback: () => HTMLElement | null | undefined = focusFallback): void {
  requestAnimationFrame(() => {
    if (!document.activeElement || document.activeElement === document.body) fallback()?.focus();
  });
}
