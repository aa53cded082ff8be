/**
 * "Older entries" of Activity and a Record's History: the next page, then the focus on its first
 * entry. The button stays enabled while loading (disabled, it dropped the focus to the page and
 * the next Tab started over at "Skip to content", past every entry).
 */
export function olderEntries(q: { isFetchingNextPage: boolean; fetchNextPage(): Promise<unknown> }, shown: number, selector: string): void {
  if (q.isFetchingNextPage) return;
  void q.fetchNextPage().then(() =>
    requestAnimationFrame(() => {
      const first = document.querySelectorAll<HTMLElement>(selector)[shown];
      if (!first) return;
      if (!first.matches("button, a[href], input, select, textarea, [tabindex]")) first.tabIndex = -1;
      first.focus();
    }),
  );
}
