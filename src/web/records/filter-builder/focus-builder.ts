/** Where the focus goes in the filter builder when it opens, and when what had it was removed. */

/** Into the open filter builder: its first condition that can be changed, else "add condition". */
export function focusFilterBuilder(): void {
  const first = document.querySelector<HTMLElement>(".filter-builder .cond :is(input, select):enabled");
  (first ?? document.querySelector<HTMLElement>('.filter-builder button[aria-label$=": add condition"]'))?.focus();
}

/**
 * After a condition or group was removed with its own × button: that button is gone, and the
 * focus would fall to the page (where Esc and Ctrl+Enter reach nothing); back into the builder.
 */
export function refocusAfterRemoval(): void {
  requestAnimationFrame(() => {
    if (!document.activeElement || document.activeElement === document.body) focusFilterBuilder();
  });
}
