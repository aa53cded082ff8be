import { expect, it } from "vitest";
import { bucketNewsText, movedFolderTo } from "./bucket-news.utils";

const news = { id: 1, at: "2026-11-27T09:00:00Z", who: "Ada" };

it("says a job as from → to with its file count, files as a short list", () => {
  expect(bucketNewsText({ ...news, what: "moved", from: "docs/", to: "documents/", count: 3, keys: ["docs/", "documents/", "docs/a", "docs/b", "docs/c", "documents/a"] })).toBe("moved docs/ → documents/ (3 files)");
  expect(bucketNewsText({ ...news, what: "moved", from: "a.txt", to: "b/a.txt", keys: ["a.txt", "b/a.txt"] })).toBe("moved a.txt → b/a.txt");
  expect(bucketNewsText({ ...news, what: "deleted", from: "old/", count: 1, keys: ["old/", "old/x"] })).toBe("deleted old/ (1 file)");
  expect(bucketNewsText({ ...news, what: "new", keys: ["a", "b", "c", "d", "e"] })).toBe("added a, b, c and 2 more");
  expect(bucketNewsText({ ...news, what: "deleted", from: "huge/", count: 800, cancelled: true, keys: [] })).toBe("deleted 800 files of huge/, then cancelled the rest");
});

it("finds where the folder on screen went when it, or a folder above it, was moved", () => {
  const moved = { ...news, what: "moved" as const, from: "docs/", to: "documents/", keys: [] };
  expect(movedFolderTo(moved, "docs/")).toBe("documents/");
  expect(movedFolderTo(moved, "docs/2024/")).toBe("documents/2024/");
  expect(movedFolderTo(moved, "other/")).toBeUndefined();
  expect(movedFolderTo({ ...moved, what: "copied" }, "docs/")).toBeUndefined();
});
