/**
 * The entries of one folder from wherever they can come from: the list extension (paged through
 * its cursor) or, where the upstream cannot list, the keys this browser uploaded (IndexedDB).
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { usePendingFolders } from "../browser-state";
import { type Entry, type ListPage, entriesFromPages } from "../listing.utils";
import { levelFromKeys, pendingChildren } from "../paths.utils";
import { localUploadsQueryOptions } from "../local-uploads-list-query";
import { listQueryOptions } from "../objects-list-query";

export interface FolderEntries {
  entries: Entry[];
  isPending: boolean;
  error: Error | null;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  refetch(): void;
}

export function useFolderEntries(bucket: string, folder: string, canList: boolean, enabled: boolean): FolderEntries {
  const list = useInfiniteQuery({ ...listQueryOptions(bucket, folder), enabled: enabled && canList });
  const local = useQuery({ ...localUploadsQueryOptions(bucket), enabled: enabled && !canList });
  const pending = usePendingFolders((s) => s.byBucket[bucket]);

  const pages: ListPage[] | undefined = useMemo(() => {
    if (canList) return list.data?.pages;
    if (!local.data) return undefined;
    const level = levelFromKeys(local.data, folder);
    return [{ items: level.files, folders: level.folders }];
  }, [canList, list.data, local.data, folder]);

  const entries = useMemo(
    () => (pages ? entriesFromPages(pages, folder, pendingChildren(pending ?? [], folder)) : []),
    [pages, folder, pending],
  );

  const q = canList ? list : local;
  return {
    entries,
    isPending: enabled && q.isPending,
    error: q.error,
    hasMore: canList && !!list.hasNextPage,
    loadingMore: canList && list.isFetchingNextPage,
    loadMore: () => void list.fetchNextPage(),
    refetch: () => void q.refetch(),
  };
}
