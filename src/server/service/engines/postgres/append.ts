/**
 * Bulk loading on PostgreSQL without COPY: each batch is one `INSERT … SELECT * FROM
 * unnest($1::type[], $2::type[], …)`, one array parameter per column. That is one statement
 * and one round trip per batch whatever its size (no 65,535-parameter limit, no per-row parse),
 * within a small factor of COPY, and needs no extra driver (pg-copy-streams). Runs on the
 * write transaction's connection, so a failed import appends nothing.
 */
import type pg from "pg";

const BATCH = 5000;

interface Column {
  name: string;
  type: string;
}

async function columnsOf(client: pg.PoolClient, table: string): Promise<Column[]> {
  // pg_attribute rather than information_schema: it also sees the transaction's temp tables.
  const res = await client.query<{ name: string; type: string }>(
    "select attname as name, format_type(atttypid, null) as type from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum",
    [table],
  );
  if (res.rows.length === 0) throw new Error(`append: table ${table} has no columns`);
  return res.rows;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function appendRows(client: pg.PoolClient, table: string, columns: string[], batches: AsyncIterable<unknown[][]>): Promise<number> {
  const known = new Map((await columnsOf(client, table)).map((c) => [c.name, c.type]));
  const targets = columns.map((name) => {
    const type = known.get(name);
    if (!type) throw new Error(`append: ${table} has no column ${name}`);
    return { name, type };
  });
  const text =
    `insert into ${quote(table)} (${targets.map((c) => quote(c.name)).join(", ")}) ` +
    `select * from unnest(${targets.map((c, i) => `$${i + 1}::${c.type}[]`).join(", ")})`;
  let n = 0;
  let pending: unknown[][] = targets.map(() => []);
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    await client.query({ text, values: pending });
    n += size;
    pending = targets.map(() => []);
    size = 0;
  };
  for await (const batch of batches) {
    for (const row of batch) {
      for (let i = 0; i < targets.length; i++) (pending[i] as unknown[]).push(row[i] ?? null);
      if (++size >= BATCH) await flush();
    }
  }
  await flush();
  return n;
}
