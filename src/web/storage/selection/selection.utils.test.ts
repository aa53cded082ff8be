import { describe, expect, it } from "vitest";
import type { Entry } from "../listing.utils";
import { destinationOf, destinationProblem, entryId, goneAfter, prune, selectRange, selectionText, summarize, toggle, toggleAll } from "./selection.utils";

const file = (key: string, size = 10): Entry => ({ kind: "file", key, name: key.split("/").pop()!, versionedKey: `v1/${key}`, size, contentType: "text/plain", lastModified: "2026-01-01T00:00:00Z" }) as Entry;
const folder = (f: string, pending = false): Entry => ({ kind: "folder", folder: f, name: f.replace(/\/$/, "").split("/").pop()!, pending }) as Entry;
const shown = [folder("a/"), file("b.txt", 5), file("c.txt", 7), file("d.txt", 11), folder("new/", true)];

describe("selection", () => {
  it("toggles one entry", () => {
    expect([...toggle(new Set(), "b.txt")]).toEqual(["b.txt"]);
    expect([...toggle(new Set(["b.txt"]), "b.txt")]).toEqual([]);
  });
  it("shift-click selects the range from the anchor, or clears it when the clicked one was selected", () => {
    expect([...selectRange(new Set(["a/"]), shown, "a/", "c.txt")].sort()).toEqual(["a/", "b.txt", "c.txt"]);
    expect([...selectRange(new Set(["b.txt", "c.txt", "d.txt"]), shown, "b.txt", "d.txt")]).toEqual([]);
    expect([...selectRange(new Set(), shown, null, "c.txt")]).toEqual(["c.txt"]);
  });
  it("Ctrl+A selects everything shown but new empty folders, and again clears", () => {
    const all = toggleAll(new Set(), shown);
    expect([...all].sort()).toEqual(["a/", "b.txt", "c.txt", "d.txt"]);
    expect(toggleAll(all, shown).size).toBe(0);
  });
  it("forgets what is no longer shown", () => {
    expect([...prune(new Set(["b.txt", "gone.txt"]), shown)]).toEqual(["b.txt"]);
  });
  it("counts files and folders and adds up the files' sizes", () => {
    const s = summarize(new Set(["a/", "b.txt", "d.txt"]), shown);
    expect(s.bytes).toBe(16);
    expect(s.folders).toEqual(["a/"]);
    expect(selectionText(s)).toBe("2 files and 1 folder");
    expect(selectionText({ files: [s.files[0]], folders: [] })).toBe("1 file");
    expect(entryId(folder("x"))).toBe("x/");
  });
});

describe("bulk move and copy destinations", () => {
  it("keep each item's name under the chosen folder", () => {
    expect(destinationOf("a/b/c.txt", "z")).toBe("z/c.txt");
    expect(destinationOf("a/b/", "z/")).toBe("z/b/");
    expect(destinationOf("c.txt", "")).toBe("c.txt");
  });
  it("refuse a folder into itself, a move to where it is, and bad paths", () => {
    expect(destinationProblem(["a/"], "a/inner", "move")).toContain("inside itself");
    expect(destinationProblem(["x/c.txt"], "x", "move")).toContain("already");
    expect(destinationProblem(["x/c.txt"], "x", "copy")).toBeUndefined();
    expect(destinationProblem(["c.txt"], "/abs", "move")).toContain("without /");
    expect(destinationProblem(["c.txt"], "a/../b", "move")).toContain("not a folder path");
    expect(destinationProblem(["c.txt"], "archive/2024/", "move")).toBeUndefined();
  });
});

describe("goneAfter", () => {
  it("is true for a deleted or moved file, or one under a deleted or moved folder; never after a copy", () => {
    expect(goneAfter("delete", ["a/x.txt"], "a/x.txt")).toBe(true);
    expect(goneAfter("move", ["a/sub/"], "a/sub/deep/y.txt")).toBe(true);
    expect(goneAfter("delete", ["a/sub/"], "a/subway.txt")).toBe(false);
    expect(goneAfter("delete", ["a/x.txt"], "a/x.txt.bak")).toBe(false);
    expect(goneAfter("copy", ["a/x.txt"], "a/x.txt")).toBe(false);
  });
});
