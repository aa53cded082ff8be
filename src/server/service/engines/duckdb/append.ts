/**
 * Bulk loading through DuckDB's appender (much faster than INSERT statements): values are
 * appended by the column's SQL type, already encoded for the store by the caller. Runs on the
 * writer connection inside its transaction, so a failed import appends nothing.
 */
import type { DuckDBAppender, DuckDBConnection } from "@duckdb/node-api";

export async function appendRows(conn: DuckDBConnection, table: string, columns: string[], batches: AsyncIterable<unknown[][]>): Promise<number> {
  const info = await conn.runAndReadAll(
    "select column_name, data_type from information_schema.columns where table_name = $1 order by ordinal_position",
    [table],
  );
  const typeOf = new Map(info.getRows().map(([name, type]) => [String(name), String(type)]));
  const ordered = [...typeOf.keys()];
  // The appender fills every column in table order; `columns` may name them in any order.
  const position = ordered.map((name) => columns.indexOf(name));
  const types = ordered.map((name) => typeOf.get(name)!);
  const appender = await conn.createAppender(table);
  let n = 0;
  try {
    for await (const batch of batches) {
      for (const row of batch) {
        for (let i = 0; i < ordered.length; i++) appendValue(appender, types[i], position[i] < 0 ? null : row[position[i]]);
        appender.endRow();
        n++;
      }
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return n;
}

function appendValue(appender: DuckDBAppender, type: string, value: unknown): void {
  if (value === null || value === undefined) appender.appendNull();
  else if (type === "DOUBLE") appender.appendDouble(value as number);
  else if (type === "BOOLEAN") appender.appendBoolean(value as boolean);
  else if (type === "BIGINT") appender.appendBigInt(BigInt(value as number));
  else if (type === "INTEGER") appender.appendInteger(value as number);
  else appender.appendVarchar(String(value));
}
