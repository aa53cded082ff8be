/**
 * The import's scan (issue 21 item 1) decides a file by DuckDB's tests of each cell instead of
 * our own (import/cells.ts). Its tests must be one-sided: "sure" only where our rule accepts the
 * cell, "surely not" only where it refuses it. Checked here cell by cell on a real DuckDB,
 * against the rules themselves, over hand-picked edges, every day of a few calendar years and
 * random text; and the common cells must be decided (else the scan would never be used).
 */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CellTest } from "../engine";
import { allCandidates, narrow } from "../../records/import/cells";
import { normalizeDatetime } from "../../../../shared/values/dates";
import { cellTest } from "./read-csv";

let instance: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(":memory:");
  conn = await instance.connect();
});
afterAll(() => instance.closeSync());

/** What our own pass says of a cell for each type (the inference rule, `narrow`). */
function ours(cell: string, test: CellTest): boolean {
  const c = allCandidates();
  narrow(c, cell);
  if (test === "datetime") return normalizeDatetime(cell) !== undefined && c.datetime;
  return c[test];
}

/** DuckDB's [sure, surely not] for each cell, in one statement per test. */
async function duck(cells: string[], test: CellTest): Promise<[boolean, boolean][]> {
  const [sure, surelyNot] = cellTest("c", test);
  const values = cells.map((_, i) => `($${i + 1}::varchar, ${i})`).join(", ");
  const reader = await conn.runAndReadAll(`select ${sure}, ${surelyNot} from (values ${values}) t(c, i) order by i`, cells);
  return reader.getRows().map(([a, b]) => [a === true, b === true]);
}

async function agree(cells: string[], test: CellTest): Promise<{ sure: number; surelyNot: number }> {
  const answers = await duck(cells, test);
  let sure = 0;
  let surelyNot = 0;
  cells.forEach((cell, i) => {
    const [s, n] = answers[i];
    const rule = ours(cell, test);
    if (s) expect({ cell, test, rule }).toEqual({ cell, test, rule: true });
    if (n) expect({ cell, test, rule }).toEqual({ cell, test, rule: false });
    if (s) sure++;
    if (n) surelyNot++;
  });
  return { sure, surelyNot };
}

const EDGES = [
  "42", "-4.5", "+7", ".5", "5.", "0", "-0", "-0.0", "+0", "-.0", "007", "0010", "-05", "+01", "0.5", "-0.25", "00.5", " 0012", " 12 ", "\t3\n", "\u000b4", "\u00a05", "1e3", "1E3", "1_000",
  "195,800", "12abc", "abc", "", " ", "-", ".", "+-1", "--1", "1.2.3", "123456789012345", "1234567890123456", "-12345678901234",
  "99999999999999999999", "9007199254740993", "0.1000000000000000055", "٣", "１２", "true", "TRUE", "False", "fAlSe", "truee", " true",
  "yes", "1", "2024-05-01", "2024-02-29", "2023-02-29", "1900-02-29", "2000-02-29", "0000-02-29", "0000-01-01", "0001-01-01",
  "9999-12-31", "2024-13-01", "2024-00-10", "2024-01-00", "2024-01-32", "2024-1-5", "2024-05-01 ", "2024-05-01\n", "２０２４-05-01",
  "2024-05-01T10:00:00Z", "2024-05-01t10:00z", "2024-05-01T10:00:00+02:00", "2024-05-01T25:00:00Z", "2024-05-01 10:00:00Z", "José",
  "2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.123Z", "2024-05-01T10:00:00.1234Z", "2024-05-01T23:59:59Z", "2024-05-01T24:00:00Z",
  "2024-05-01T10:60:00Z", "2024-05-01T10:00:60Z", "2024-02-30T10:00:00Z", "2024-02-29T10:00:00Z", "2023-02-29T10:00:00Z",
  "0000-05-01T10:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "2024-05-01T10:00Z", "2024-05-01T10:00:00.Z",
  "2024-05-01T10:00:00z", "2024-05-01T10:00:00Z ", "2024-5-01T10:00:00Z",
];

describe.each(["number", "boolean", "date", "datetime"] as CellTest[])("%s", (test) => {
  it("sure and surely-not agree with our own rule on the edges", async () => {
    await agree(EDGES.filter((c) => c !== ""), test);
  });

  it("and on random text made of the characters that matter", async () => {
    const alphabet = ["0", "1", "2", "9", "-", "+", ".", "e", " ", "\t", "\u00a0", "T", ":", "Z", "t", "r", "u", "a", "x", ","];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const cells: string[] = [];
    for (let i = 0; i < 3000; i++) {
      let s = "";
      const n = 1 + Math.floor(random() * 12);
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(random() * alphabet.length)];
      cells.push(s);
    }
    await agree(cells, test);
  });
});

it("every day of a few years, valid or not, is decided exactly as our calendar decides it", async () => {
  const cells: string[] = [];
  for (const year of ["0001", "0004", "0100", "1900", "2000", "2023", "2024", "2100", "9999"])
    for (let m = 0; m <= 13; m++) for (let d = 0; d <= 32; d++) cells.push(`${year}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);
  const answers = await duck(cells, "date");
  cells.forEach((cell, i) => {
    const [sure, surelyNot] = answers[i];
    expect({ cell, sure, surelyNot }).toEqual({ cell, sure: ours(cell, "date"), surelyNot: !ours(cell, "date") });
  });
});

it("decides the common cells, so the scan is used for ordinary files", async () => {
  expect(await agree(["42", "-4.5", "0", "209000", " 12 "], "number")).toEqual({ sure: 5, surelyNot: 0 });
  expect(await agree(["Liam Brown", "N/A", "1e3", "-"], "number")).toEqual({ sure: 0, surelyNot: 4 });
  expect(await agree(["true", "FALSE"], "boolean")).toEqual({ sure: 2, surelyNot: 0 });
  expect(await agree(["2024-05-01", "1999-12-31"], "date")).toEqual({ sure: 2, surelyNot: 0 });
  expect(await agree(["2024-02-30", "May 1", "2024-05-01T10:00Z"], "date")).toEqual({ sure: 0, surelyNot: 3 });
  expect(await agree(["Plant Manager", "2024-05-01"], "datetime")).toEqual({ sure: 0, surelyNot: 2 });
  expect(await agree(["2002-03-01T13:48:20Z", "2024-05-01T10:00:00.123Z", "1999-12-31T23:59:59.5Z"], "datetime")).toEqual({ sure: 3, surelyNot: 0 });
});
