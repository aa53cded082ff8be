import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvProblem, rowStartLine, type SyncCsvParse } from "./csv-problem";

const problemIn = (text: string) => {
  try {
    parse(text, { bom: true, skip_empty_lines: true, info: true });
  } catch (e) {
    return csvProblem(e as object, undefined, rowStartLine(e as object, text, parse as SyncCsvParse));
  }
  return "parsed";
};

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

describe("a quote never closed is named where it opens", () => {
  it.each([
    ['id,name\n1,a\n2,"b\n3,c\n4,d\n5,e\n', 3],
    ['id,name\n"1,a\n2,b\n', 2],
    ['id,name\n1,"multi\nline"\n2,"b\n3,c\n', 4],
    ['id,name\n1,ü\n\n2,"b\n', 4],
  ])("%j → line %i", (text, line) => {
    expect(problemIn(text)).toBe(`line ${line}: a quote (") opens a value that is never closed.`);
  });
});

describe("a quoted value that runs on to a later line and closes there with more text is named where it opens", () => {
  it.each([
    // A review's file: a quote opened at the end of line 3 closes before "Tokyo" on line 4.
    ['id,city,note\n1,"Paris",a\n2,"Oslo","note 2\n3,"Tokyo",c\n', 3, 4],
    ['id,name\n1,"multi\nline"\n2,"b\n3,"c",d\n', 4, 5],
  ])("%j → line %i (runs on to %i)", (text, line, to) => {
    expect(problemIn(text)).toBe(`line ${line}: a quote (") opens a value that runs on to line ${to}, where more text follows its closing quote; close it on line ${line}, or write a quote inside a value twice ("").`);
  });
  it("on its own line: named there, as before", () => {
    expect(problemIn('id,name\n1,"x"y\n')).toBe('line 2: a quoted value is followed by more text; write a quote inside a value twice ("").');
  });
});

describe("a line longer than an import reads", () => {
  it("is named by its line, with the bound, in words", () => {
    let message = "parsed";
    try {
      parse(`a,b\n1,2\n3,${"x".repeat(40)}\n`, { info: true, max_record_size: 20 });
    } catch (e) {
      message = csvProblem(e as object);
    }
    expect(message).toBe("line 3 is longer than 16 MB, the most one line of an import may hold: shorten its longest cell.");
  });
});
