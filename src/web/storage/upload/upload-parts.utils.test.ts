import { describe, expect, it } from "vitest";
import { ackedBytes, parseSaved, partBounds, partsToSend, sessionStorageKey, unfinishedIn } from "./upload-parts.utils";

const MiB = 1024 * 1024;

describe("resumable upload helpers", () => {
  it("splits a file into 1-based parts, the last one the rest", () => {
    expect(partBounds(20 * MiB, 8 * MiB, 1)).toEqual([0, 8 * MiB]);
    expect(partBounds(20 * MiB, 8 * MiB, 3)).toEqual([16 * MiB, 20 * MiB]);
    expect(partsToSend(20 * MiB, 8 * MiB, [])).toEqual([1, 2, 3]);
    expect(partsToSend(0, 8 * MiB, [])).toEqual([]);
  });

  it("sends only the parts not acknowledged, and counts what is already there", () => {
    expect(partsToSend(20 * MiB, 8 * MiB, [3, 1])).toEqual([2]);
    expect(ackedBytes(20 * MiB, 8 * MiB, [1, 3, 3])).toBe(12 * MiB);
    expect(ackedBytes(20 * MiB, 8 * MiB, [])).toBe(0);
  });

  it("remembers a session per bucket, key and file, and ignores what it cannot read", () => {
    const f = { name: "a.bin", size: 10, lastModified: 5 };
    expect(sessionStorageKey("b", "k/a.bin", f)).not.toBe(sessionStorageKey("b", "k/a.bin", { ...f, lastModified: 6 }));
    expect(sessionStorageKey("b", "k/a.bin", f)).not.toBe(sessionStorageKey("c", "k/a.bin", f));
    expect(parseSaved(JSON.stringify({ id: "x", partSize: 8, savedAt: 1 }))).toEqual({ id: "x", partSize: 8, savedAt: 1 });
    expect(parseSaved("{oops")).toBeUndefined();
    expect(parseSaved(JSON.stringify({ id: "x" }))).toBeUndefined();
    expect(parseSaved(null)).toBeUndefined();
  });
});

describe("unfinished uploads remembered in this browser", () => {
  it("lists the sessions of one folder of one bucket, oldest first, and skips anything else", () => {
    const f = (name: string, size: number) => ({ name, size, lastModified: 1 });
    const entries: [string, string | null][] = [
      [sessionStorageKey("files", "docs/big.iso", f("big.iso", 900)), JSON.stringify({ id: "s2", partSize: 100, savedAt: 20 })],
      [sessionStorageKey("files", "docs/old.iso", f("old.iso", 500)), JSON.stringify({ id: "s1", partSize: 100, savedAt: 10 })],
      [sessionStorageKey("files", "docs/deeper/x.bin", f("x.bin", 5)), JSON.stringify({ id: "s3", partSize: 100, savedAt: 1 })],
      [sessionStorageKey("other", "docs/y.bin", f("y.bin", 5)), JSON.stringify({ id: "s4", partSize: 100, savedAt: 1 })],
      [sessionStorageKey("files", "docs/broken.bin", f("broken.bin", 5)), "{not json"],
      ["baseboard.upload:[not json", JSON.stringify({ id: "s5", partSize: 1, savedAt: 1 })],
      ["baseboard.sidebar", "open"],
    ];
    expect(unfinishedIn(entries, "files", "docs").map((u) => [u.key, u.name, u.size, u.session.id])).toEqual([
      ["docs/old.iso", "old.iso", 500, "s1"],
      ["docs/big.iso", "big.iso", 900, "s2"],
    ]);
    expect(unfinishedIn(entries, "files", "docs/").length).toBe(2);
    expect(unfinishedIn(entries, "files", "").length).toBe(0);
    expect(unfinishedIn(entries, "files", "docs/deeper").map((u) => u.key)).toEqual(["docs/deeper/x.bin"]);
  });
});
