/** "Delete the selection, after confirming": asked by the grid's Delete key, answered by DeleteSelected. */
import { create } from "zustand";

export const useDeleteRequest = create<{ asked: number }>(() => ({ asked: 0 }));

export const deleteRequest = {
  ask() {
    useDeleteRequest.setState((s) => ({ asked: s.asked + 1 }));
  },
};
