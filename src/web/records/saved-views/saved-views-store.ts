/** The saved views, in localStorage (`baseboard.views.v1`), shared by every tab of the browser. */
import { create } from "zustand";
import { readViews, type SavedView, toFile } from "./saved-views.utils";

const KEY = "baseboard.views.v1";

function load(): SavedView[] {
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    return raw ? readViews(JSON.parse(raw)).views : [];
  } catch {
    return [];
  }
}

export const useSavedViews = create<{ views: SavedView[] }>(() => ({ views: load() }));

export function setViews(views: SavedView[]): void {
  useSavedViews.setState({ views });
  try {
    localStorage.setItem(KEY, JSON.stringify(toFile(views)));
  } catch {
    // Quota or private mode: the views last for this session.
  }
}

// Another tab saved or deleted a view.
globalThis.addEventListener?.("storage", (e: StorageEvent) => {
  if (e.key === KEY) useSavedViews.setState({ views: load() });
});
