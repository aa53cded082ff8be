/**
 * The record panel's Next on a page's last row (Previous on its first) goes on to the next
 * (previous) page and opens its first (last) Record once that page is here (issue 23.6).
 */
import { useEffect, useRef } from "react";
import type { RecordRow } from "../../../shared/records";
import { useStableCallback } from "../../ui/use-stable-callback";

export function usePanelPaging(opts: {
  page: number;
  last: number;
  /** The rows of the page on screen; undefined while another page's rows stand in. */
  pageRows: readonly RecordRow[] | undefined;
  pkField: string;
  goToPage(page: number): void;
  openRecord(record: string): void;
}) {
  const openOnPage = useRef<"first" | "last" | null>(null);
  const step = useStableCallback((delta: -1 | 1) => {
    const p = opts.page + delta;
    if (p < 1 || p > opts.last) return;
    openOnPage.current = delta > 0 ? "first" : "last";
    opts.goToPage(p);
  });
  const { pageRows, pkField, openRecord } = opts;
  useEffect(() => {
    const which = openOnPage.current;
    if (!which || !pageRows?.length) return;
    openOnPage.current = null;
    const r = which === "first" ? pageRows[0] : pageRows[pageRows.length - 1];
    openRecord(String(r[pkField]));
  }, [pageRows, pkField, openRecord]);
  return step;
}
