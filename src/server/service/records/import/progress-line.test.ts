import { describe, expect, it } from "vitest";
import { progressLine, progressPrinter, QUIET_LINE_EVERY_S } from "./progress-line";

describe("the import's progress line", () => {
  it("says the phase, how far, and how long the phase has run", () => {
    expect(progressLine({ phase: "checking", rows: 1_234_567 }, 3.7)).toBe("checking: 1,234,567 rows (3 s)");
    expect(progressLine({ phase: "indexing", fraction: 0.5 }, 42)).toBe("indexing: 50% (42 s)");
  });

  it("on a terminal, counts the seconds of a phase whose percent does not move", () => {
    let t = 0;
    const print = progressPrinter(true, () => t);
    expect(print({ phase: "loading", fraction: 1 })).toBe("loading: 100% (0 s)");
    t = 2_000;
    expect(print({ phase: "indexing", fraction: 0.5 })).toBe("indexing: 50% (0 s)");
    t = 32_500;
    expect(print({ phase: "indexing", fraction: 0.5 })).toBe("indexing: 50% (30 s)");
  });

  it("in a log, writes a line when the amount changes or every few seconds, not on every report", () => {
    let t = 0;
    const print = progressPrinter(false, () => t);
    const lines: string[] = [];
    for (let i = 0; i <= 60; i++) {
      t = i * 500;
      const line = print({ phase: "indexing", fraction: i < 4 ? i / 8 : 0.5 });
      if (line) lines.push(line);
    }
    expect(lines.slice(0, 5)).toEqual(["indexing: 0% (0 s)", "indexing: 13% (0 s)", "indexing: 25% (1 s)", "indexing: 38% (1 s)", "indexing: 50% (2 s)"]);
    // 30 s at 50%: one line each QUIET_LINE_EVERY_S after the last.
    expect(lines.slice(5)).toEqual([`indexing: 50% (${2 + QUIET_LINE_EVERY_S} s)`, `indexing: 50% (${2 + 2 * QUIET_LINE_EVERY_S} s)`]);
  });
});
