import { describe, expect, it } from "vitest";
import { dropAccepted, draggedIds } from "./drag-to-folder";

describe("dragging entries onto a folder", () => {
  it("a selected entry takes the selection with it; one not selected goes alone", () => {
    const selected = new Set(["a/x.txt", "a/y.txt", "a/sub/"]);
    expect(draggedIds(selected, "a/y.txt").sort()).toEqual(["a/sub/", "a/x.txt", "a/y.txt"]);
    expect(draggedIds(selected, "a/z.txt")).toEqual(["a/z.txt"]);
  });

  it("a folder takes files from elsewhere, not itself, not a folder inside itself, not where they all are", () => {
    expect(dropAccepted(["a/x.txt"], "a/sub/")).toBe(true);
    expect(dropAccepted(["a/x.txt"], "a/sub")).toBe(true);
    // Up to the root (a breadcrumb), or to a parent.
    expect(dropAccepted(["a/x.txt"], "")).toBe(true);
    expect(dropAccepted(["a/b/x.txt", "a/b/c/"], "a/")).toBe(true);
    expect(dropAccepted(["a/sub/"], "a/sub/")).toBe(false);
    expect(dropAccepted(["a/sub/", "a/x.txt"], "a/sub/deeper/")).toBe(false);
    expect(dropAccepted(["a/x.txt", "a/y.txt"], "a/")).toBe(false);
    expect(dropAccepted(["x.txt"], "")).toBe(false);
    // A folder named like the start of another is not inside it.
    expect(dropAccepted(["a/sub/"], "a/subway/")).toBe(true);
  });
});
