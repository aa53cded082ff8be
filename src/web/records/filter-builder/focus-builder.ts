/** Where the focus goes in the filter builder when it opens, and when what had it was removed. */
import { refocusIfLost } from "../../ui/focus-fallback";

/** The open filter builder's first condition that can be changed, else "add condition". */
const builderTarget = (): HTMLElement | null =>
  document.querySelector<HTMLElement>(".filter-builder .cond :is(input, select):enabled") ??
  document.querySelector<HTMLElement>('.filter-builder button[aria-label$=": add condition"]');

export function focusFilterBuilder(): void {
  builderTarget()?.focus();
}

/**
 * After a condition or group was removed with its own × button: that button is gone, and the
 * focus would fall to the page (where Esc and Ctrl+Enter reach nothing); back into the builder.
 */
export const refocusAfterRemoval = (): void => refocusIfLost(builderTarget);
