import { describe, expect, it } from "vitest";
import { pathProblem } from "./move-path.utils";

describe("a new path for a move, rename or copy", () => {
  it("is refused before sending, in words, where the service would refuse it", () => {
    expect(pathProblem("docs/a.pdf", "docs/b.pdf")).toBeUndefined();
    expect(pathProblem("docs/a.pdf", "docs/a.pdf")).toBe("That is where it is already.");
    expect(pathProblem("docs/a.pdf", "review stuff/../evil.pdf")).toBe('The new path has a ".." segment; folder names cannot be . or ..');
    expect(pathProblem("docs/a.pdf", "a//b.pdf")).toMatch(/^The new path has an empty folder name/);
    expect(pathProblem("docs/", "archive/../")).toBe('The new path has a ".." segment; folder names cannot be . or ..');
    // A folder moved to the bucket's top, and a folder's new path, are fine.
    expect(pathProblem("docs/", "")).toBeUndefined();
    expect(pathProblem("docs/", "archive/docs/")).toBeUndefined();
  });
});
