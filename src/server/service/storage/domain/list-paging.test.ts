import { describe, expect, it } from "vitest";
import { type KeySource, decodeCursor, encodeCursor, listPage, prefixUpperBound } from "./list-paging";

const keys = [
  "a.txt",
  "docs",
  "docs-x.txt",
  "docs/a.txt",
  "docs/b/c.txt",
  "docs/b/d.txt",
  "docs/z.txt",
  "docs0.txt",
  "img/1.png",
  "img/2.png",
  "img/sub/3.png",
  "z.txt",
].sort();

function source(all: string[]): KeySource & { calls: number } {
  const fn = ((from: string, inclusive: boolean, below: string | undefined, limit: number) => {
    fn.calls++;
    return all.filter((k) => (inclusive ? k >= from : k > from) && (below === undefined || k < below)).slice(0, limit);
  }) as KeySource & { calls: number };
  fn.calls = 0;
  return fn;
}

const names = (entries: Awaited<ReturnType<typeof listPage>>["entries"]) => entries.map((e) => (e.kind === "item" ? e.key : e.prefix));

describe("listPage", () => {
  it.each([
    ["", ["a.txt", "docs", "docs-x.txt", "docs/", "docs0.txt", "img/", "z.txt"]],
    ["docs/", ["docs/a.txt", "docs/b/", "docs/z.txt"]],
    ["docs/b/", ["docs/b/c.txt", "docs/b/d.txt"]],
    ["img/", ["img/1.png", "img/2.png", "img/sub/"]],
    ["doc", ["docs", "docs-x.txt", "docs/", "docs0.txt"]],
    ["nothing/", []],
  ])("one level under %j", async (prefix, expected) => {
    const page = await listPage(prefix, undefined, 100, source(keys));
    expect(names(page.entries)).toEqual(expected);
    expect(page.next).toBeUndefined();
  });

  it.each([1, 2, 3, 5])("pages of %d visit every entry once, in order", async (limit) => {
    const src = source(keys);
    const seen: string[] = [];
    let cursor: { after: string } | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await listPage("", cursor, limit, src);
      expect(page.entries.length).toBeLessThanOrEqual(limit);
      seen.push(...names(page.entries));
      if (!page.next) break;
      cursor = decodeCursor(encodeCursor(page.next)).ok ? page.next : undefined;
    }
    expect(seen).toEqual(["a.txt", "docs", "docs-x.txt", "docs/", "docs0.txt", "img/", "z.txt"]);
  });

  it("skips a large folder in one lookup", async () => {
    const many = [...Array.from({ length: 5000 }, (_, i) => `big/${String(i).padStart(5, "0")}`), "small.txt"];
    const src = source(many);
    const page = await listPage("", undefined, 10, src);
    expect(names(page.entries)).toEqual(["big/", "small.txt"]);
    expect(src.calls).toBeLessThanOrEqual(3);
  });

  it("rejects a cursor it did not make", () => {
    expect(decodeCursor("!!!").ok).toBe(false);
    expect(decodeCursor(Buffer.from('{"b":1}').toString("base64url")).ok).toBe(false);
  });
});

describe("prefixUpperBound", () => {
  it.each([
    ["", undefined],
    ["docs/", "docs0"],
    ["a", "b"],
    ["\ud7ff", "\ue000"],
    ["x\u{10ffff}", "y"],
  ])("%j -> %j", (prefix, expected) => {
    expect(prefixUpperBound(prefix)).toBe(expected);
  });
});
