/**
 * UI state of the bucket browser that is not in the URL: list or grid and the sort (kept across
 * reloads), and folders the user created that have no file yet (a folder exists only through the
 * keys in it, so until the first upload it lives here).
 */
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import type { SortSpec } from "./listing.utils";

export type ViewMode = "list" | "grid";

interface BrowserPrefs {
  view: ViewMode;
  sort: SortSpec;
  setView(view: ViewMode): void;
  setSort(sort: SortSpec): void;
}

export const useBrowserPrefs = create<BrowserPrefs>()(
  persist(
    (set) => ({
      view: "list",
      sort: { by: "name", dir: "asc" },
      setView: (view) => set({ view }),
      setSort: (sort) => set({ sort }),
    }),
    { name: "baseboard-storage-prefs", partialize: (s) => ({ view: s.view, sort: s.sort }) },
  ),
);

interface PendingFolders {
  /** bucket → full folder paths created in this session. */
  byBucket: Record<string, string[]>;
  add(bucket: string, folder: string): void;
}

// In sessionStorage: a reload keeps them (the folder may be in the URL), a new tab starts clean.
export const usePendingFolders = create<PendingFolders>()(
  persist(
    (set) => ({
      byBucket: {},
      add: (bucket, folder) =>
        set((s) => {
          const list = s.byBucket[bucket] ?? [];
          return list.includes(folder) ? s : { byBucket: { ...s.byBucket, [bucket]: [...list, folder] } };
        }),
    }),
    { name: "baseboard-storage-new-folders", storage: createJSONStorage(() => sessionStorage), partialize: (s) => ({ byBucket: s.byBucket }) },
  ),
);

