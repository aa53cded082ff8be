import { describe, expect, it } from "vitest";
import { ackedBytes, parseSaved, partBounds, partsToSend, sessionStorageKey } from "./upload-parts.utils";

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
