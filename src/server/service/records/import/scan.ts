/**
 * The import's check by the engine (pure): which tests its scan runs over every cell, and what
 * its counts decide. Our own streaming pass (csv-import.ts, cells.ts) reads the first rows
 * exactly; the engine's scan (CsvLoad.scanSql) reads them all, natively, about ten times
 * faster. Its tests are one-sided (a cell surely passes, surely fails, or neither), so the
 * scan decides only what it is sure of; anything else (`undefined`) sends the import back to
 * our own pass over the whole file, which also finds the line of a bad cell.
 */
import type { FieldType } from "../../../../shared/records";
import type { CellTest } from "../../engines/engine";
import type { FieldDef } from "../registry";
import type { Candidates } from "./cells";

/** Inference order: the first type every non-empty cell passes wins, else text. */
const INFERENCE: (keyof Candidates)[] = ["number", "boolean", "date", "datetime"];
/** Known types the scan can check exactly enough; a column of any other sends the import to our pass. */
const CHECKABLE = new Set<FieldType>(["text", "number", "boolean", "date", "datetime"]);

export interface ScanColumn {
  /** The Field the column goes to (existing, or a type given), or undefined to infer one. */
  known: FieldDef | undefined;
  /** The primary key (never empty). */
  primaryKey: boolean;
  /** Inference only: the types still possible after our pass over the first rows. */
  candidates: Candidates;
}

/** The tests to ask for each column, or undefined when a column's type is beyond the scan. */
export function scanTests(columns: ScanColumn[]): CellTest[][] | undefined {
  const tests: CellTest[][] = [];
  for (const c of columns) {
    if (c.known) {
      if (!CHECKABLE.has(c.known.type)) return undefined;
      tests.push(c.known.type === "text" ? [] : [c.known.type as CellTest]);
    } else tests.push(INFERENCE.filter((t) => c.candidates[t]));
  }
  return tests;
}

/** What the scan decided: each column's type, and the rows it counted. */
export interface ScanVerdict {
  rows: number;
  types: FieldType[];
}

/**
 * Reads the scan's one row (see CsvLoad.scanSql) against the tests asked: the types, or
 * undefined when a cell fails or may fail (our own pass then names it, with its line).
 */
export function scanVerdict(columns: ScanColumn[], tests: CellTest[][], row: unknown[]): ScanVerdict | undefined {
  const rows = Number(row[0]);
  let at = 1;
  const types: FieldType[] = [];
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i];
    const nonEmpty = Number(row[at++]);
    // A NUL in a cell: our own pass refuses it by its line (it was stored on DuckDB, a 500 on PostgreSQL).
    if (Number(row[at++]) > 0) return undefined;
    const counts = tests[i].map(() => {
      const sure = Number(row[at++]);
      const surelyNot = Number(row[at++]);
      return { sure, surelyNot };
    });
    const mustBeFull = c.primaryKey || (c.known !== undefined && !c.known.nullable);
    if (mustBeFull && nonEmpty !== rows) return undefined;
    if (c.known) {
      if (counts.length && counts[0].sure !== nonEmpty) return undefined;
      types.push(c.known.type);
      continue;
    }
    let type: FieldType | undefined = "text";
    if (nonEmpty > 0) {
      for (let t = 0; t < tests[i].length; t++) {
        const { sure, surelyNot } = counts[t];
        if (sure === nonEmpty) {
          type = tests[i][t];
          break;
        }
        if (surelyNot === 0) {
          type = undefined; // Every cell may be of this type: only our own pass can tell.
          break;
        }
      }
    }
    if (type === undefined) return undefined;
    types.push(type);
  }
  return { rows, types };
}
