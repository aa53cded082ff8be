/** The proxy path of a Record endpoint of one table. */
export const recordPath = (db: string, table: string, op: string) =>
  `/api/v0/record/${encodeURIComponent(db)}/${encodeURIComponent(table)}/${op}`;
