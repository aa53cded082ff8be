import { afterEach, describe, expect, it } from "vitest";
import { toast, useToastStore } from "./toast";

afterEach(() => useToastStore.setState({ toasts: [] }));

describe("toasts", () => {
  it("shows the same words once while they are on screen", () => {
    const a = toast("Unknown column ignored: zzz");
    const b = toast("Unknown column ignored: zzz");
    expect(b).toBe(a);
    expect(useToastStore.getState().toasts).toHaveLength(1);
    // Other words, another kind or another detail are another toast.
    toast("Unknown column ignored: zzz", { kind: "error" });
    toast("Unknown column ignored: zzz", { detail: "more" });
    toast("Unknown column ignored: yyy");
    expect(useToastStore.getState().toasts).toHaveLength(4);
  });

  it("keeps every toast that offers an action (each undoes its own change)", () => {
    toast("Deleted 1 Record", { action: { label: "Undo", run: () => {} } });
    toast("Deleted 1 Record", { action: { label: "Undo", run: () => {} } });
    expect(useToastStore.getState().toasts).toHaveLength(2);
  });
});
