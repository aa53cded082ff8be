import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvProblem } from "./csv-problem";

const problemOf = (text: string) => {
  try {
    parse(text, { info: true });
  } catch (e) {
    return csvProblem(e as object);
  }
  return "parsed";
};

describe("csvProblem", () => {
  it.each([
    ["a,b\n1\n", "line 2: 1 cell where the header has 2"],
    ['a,b\n"1,2\n', 'line 2: a quote (") opens a value that is never closed.'],
    ['a,b\n1,"x"y\n', "line 2: a quoted value is followed by more text"],
  ])("%j → %s, never 'Record'", (text, want) => {
    const p = problemOf(text);
    expect(p).toContain(want);
    expect(p).not.toMatch(/record/i);
  });
});
