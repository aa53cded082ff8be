import { afterEach, describe, expect, it } from "vitest";
import { toast, useToastStore } from "./toast";

afterEach(() => useToastStore.setState({ toasts: [] }));

describe("toasts", () => {
  it("shows the same words once while they are on screen", () => {
    const a = toast("Unknown column ignored: zzz");
    const b = toast("Unknown column ignored: zzz");
    expect(b).toBe(a);
    expect(useToastStore.getState().toasts).toHaveLength(1);
    // In another colour it is still the same words; another detail or other words are another toast.
    toast("Unknown column ignored: zzz", { kind: "error" });
    expect(useToastStore.getState().toasts).toHaveLength(1);
    toast("Unknown column ignored: zzz", { detail: "more" });
    toast("Unknown column ignored: yyy");
    expect(useToastStore.getState().toasts).toHaveLength(3);
  });

  it("keeps every toast that offers an action (each undoes its own change)", () => {
    toast("Deleted 1 Record", { action: { label: "Undo", run: () => {} } });
    toast("Deleted 1 Record", { action: { label: "Undo", run: () => {} } });
    expect(useToastStore.getState().toasts).toHaveLength(2);
  });
});
