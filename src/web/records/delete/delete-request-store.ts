/**
 * "Delete, after confirming": the selection (asked by the grid's Delete key, answered by
 * DeleteSelected) or one Record (asked by the row menu and the record panel, answered by DeleteOne).
 */
import { create } from "zustand";
import type { RecordValue } from "../../../shared/records";

export const useDeleteRequest = create<{ asked: number; one: { pk: RecordValue } | null }>(() => ({ asked: 0, one: null }));

export const deleteRequest = {
  ask() {
    useDeleteRequest.setState((s) => ({ asked: s.asked + 1 }));
  },
  one(pk: RecordValue) {
    useDeleteRequest.setState({ one: { pk } });
  },
  doneOne() {
    useDeleteRequest.setState({ one: null });
  },
};
