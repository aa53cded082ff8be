import { describe, expect, it } from "vitest";
import { type Entry, entriesFromPages, filterEntries, nextSort, sortEntries } from "./listing.utils";

const pages = [
  {
    items: [
      { key: "docs/b.txt", size: 10, contentType: "text/plain", lastModified: "2026-01-02T00:00:00Z" },
      { key: "docs/A.png", size: 300, contentType: "image/png", lastModified: "2026-01-03T00:00:00Z" },
    ],
    folders: ["docs/img/"],
    nextCursor: "x",
  },
  {
    items: [
      { key: "docs/c10.pdf", size: 20, contentType: "application/pdf", lastModified: "2026-01-01T00:00:00Z" },
      { key: "docs/c9.pdf", size: 20, contentType: "application/pdf", lastModified: "2026-01-01T00:00:00Z" },
    ],
    folders: ["zeta/"],
    nextCursor: null,
  },
];

const names = (es: Entry[]) => es.map((e) => e.name);

describe("entriesFromPages", () => {
  it("merges pages, names folders relative to the folder, adds pending folders once", () => {
    const es = entriesFromPages(pages, "docs", ["new", "img"]);
    expect(names(es)).toEqual(["img", "zeta", "new", "b.txt", "A.png", "c10.pdf", "c9.pdf"]);
    expect(es.find((e) => e.name === "new")).toMatchObject({ kind: "folder", folder: "docs/new", pending: true });
    expect(es.find((e) => e.name === "img")).toMatchObject({ kind: "folder", folder: "docs/img" });
  });
});

describe("sort and filter", () => {
  const es = entriesFromPages(pages, "docs");
  it.each([
    [{ by: "name", dir: "asc" }, ["img", "zeta", "A.png", "b.txt", "c9.pdf", "c10.pdf"]],
    [{ by: "name", dir: "desc" }, ["zeta", "img", "c10.pdf", "c9.pdf", "b.txt", "A.png"]],
    [{ by: "size", dir: "desc" }, ["img", "zeta", "A.png", "c10.pdf", "c9.pdf", "b.txt"]],
    [{ by: "size", dir: "asc" }, ["img", "zeta", "b.txt", "c9.pdf", "c10.pdf", "A.png"]],
    [{ by: "date", dir: "desc" }, ["img", "zeta", "A.png", "b.txt", "c10.pdf", "c9.pdf"]],
    [{ by: "type", dir: "asc" }, ["img", "zeta", "c9.pdf", "c10.pdf", "A.png", "b.txt"]],
  ] as const)("%j", (sort, expected) => expect(names(sortEntries(es, sort))).toEqual(expected));

  it("filters by name, case-insensitively, folders included", () => {
    expect(names(filterEntries(es, "C"))).toEqual(["c10.pdf", "c9.pdf"]);
    expect(names(filterEntries(es, " IM "))).toEqual(["img"]);
    expect(filterEntries(es, "")).toHaveLength(6);
    expect(filterEntries(es, "nothing")).toEqual([]);
  });

  it("toggles direction on the same column, picks a natural one on a new column", () => {
    expect(nextSort({ by: "name", dir: "asc" }, "name")).toEqual({ by: "name", dir: "desc" });
    expect(nextSort({ by: "name", dir: "asc" }, "date")).toEqual({ by: "date", dir: "desc" });
    expect(nextSort({ by: "date", dir: "desc" }, "type")).toEqual({ by: "type", dir: "asc" });
  });
});
