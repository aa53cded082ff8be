/**
 * Tab-separated text, as spreadsheets put on the clipboard: cells quoted only when they hold a
 * tab, a line break or a leading quote (Excel's and Google Sheets' convention), quotes doubled.
 */
import type { FieldInfo, RecordValue } from "../../../shared/records";

/**
 * The text of one value on the clipboard: what the grid shows, except numbers without grouping
 * (195800, not 195,800) and dates as YYYY-MM-DD, so a spreadsheet or our own paste reads them
 * back exactly. NULL is an empty cell.
 */
export function clipboardText(field: FieldInfo, value: RecordValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (field.type === "json" || typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function quote(cell: string): string {
  return /[\t\n\r]|^"/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function toTsv(rows: readonly (readonly string[])[]): string {
  return rows.map((r) => r.map(quote).join("\t")).join("\n");
}

/** TSV → rows of cells. A trailing line break (spreadsheets add one) makes no extra row. */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let i = 0;
  let atCellStart = true;
  while (i < text.length) {
    const ch = text[i];
    if (atCellStart && ch === '"') {
      // Quoted cell: up to the closing quote; "" is a quote.
      let j = i + 1;
      let out = "";
      let closed = false;
      while (j < text.length) {
        if (text[j] === '"') {
          if (text[j + 1] === '"') {
            out += '"';
            j += 2;
            continue;
          }
          closed = true;
          j++;
          break;
        }
        out += text[j++];
      }
      if (closed && (j >= text.length || text[j] === "\t" || text[j] === "\n" || text[j] === "\r")) {
        cell = out;
        i = j;
        atCellStart = false;
        continue;
      }
      // Not a well-formed quoted cell: take the quote literally.
    }
    atCellStart = false;
    if (ch === "\t") {
      row.push(cell);
      cell = "";
      atCellStart = true;
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      atCellStart = true;
    } else {
      cell += ch;
    }
    i++;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
