/** "Open the Add Record form, prefilled": asked by the row menu's Duplicate, answered by AddRecord. */
import { create } from "zustand";

export interface AddRequest {
  /** Texts by Field key, as if typed. */
  texts: Record<string, string>;
  /** What the form says it is a copy of. */
  copyOf?: string;
}

export const useAddRequest = create<{ request: AddRequest | null }>(() => ({ request: null }));

export const addRequest = {
  ask(request: AddRequest) {
    useAddRequest.setState({ request });
  },
  taken() {
    useAddRequest.setState({ request: null });
  },
};
