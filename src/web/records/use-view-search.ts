/**
 * The records view is the URL (view-search.utils.ts): this reads it for one table, keeps the
 * unchanged parts' identity from one navigation to the next, rewrites a link with parts it
 * cannot use (saying so once), and changes it with the next view's records already fetching.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate, useRouterState, useSearch } from "@tanstack/react-router";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { toast } from "../ui/toast";
import { recordsQueryOptions } from "./records-list-query";
import { buildQueryBody, reuseViewParts, sanitizeSearch, toView, type View, type ViewSearch } from "./view-search.utils";

function clean(s: ViewSearch): ViewSearch {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as ViewSearch;
}

export function useViewSearch(db: string, table: string, pkGuess: string | undefined) {
  // By path, not by importing the route object: router.tsx imports the workspace (no cycle).
  // The router merges the root's raw search under the route's validated one, so a part that
  // validateSearch dropped comes back raw (a number or an array from `?sort=5`, which crashed
  // the grid): read it clean. The effect below says what was dropped and rewrites the link.
  const merged = useSearch({ from: "/records/$db/$table" });
  const search = useMemo(() => sanitizeSearch(merged as Record<string, unknown>).search, [merged]);
  const navigate = useNavigate({ from: "/records/$db/$table" });
  // Parts of the view that a navigation did not change keep their identity (see reuseViewParts).
  const prevView = useRef<View | undefined>(undefined);
  const view = useMemo(() => reuseViewParts(prevView.current, toView(search)), [search]);
  useEffect(() => {
    prevView.current = view;
  }, [view]);
  const rawSearch = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const qc = useQueryClient();

  // Start fetching the next view at once, before the URL and the tree catch up.
  const setSearch = useCallback(
    (patch: Partial<ViewSearch>, keepPage = false) => {
      const next = clean({ ...search, ...patch, ...(keepPage ? {} : { page: undefined }) });
      if (pkGuess) void qc.prefetchQuery(recordsQueryOptions(db, table, buildQueryBody(toView(next), pkGuess)));
      return navigate({ search: next });
    },
    [navigate, search, qc, db, table, pkGuess],
  );

  // A link with parts we cannot use: say so once, and rewrite the URL to what is shown.
  useEffect(() => {
    const { problems, search: cleaned } = sanitizeSearch(rawSearch);
    if (problems.length) {
      toast("Part of this link was not understood", { kind: "info", detail: problems.join(" "), ttlMs: 10_000 });
      navigate({ search: cleaned, replace: true });
    }
  }, [rawSearch, navigate]);

  return { search, view, setSearch };
}
