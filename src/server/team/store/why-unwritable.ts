/**
 * Why Baseboard's own store (SQLite files in DATA_DIR, or the PostgreSQL of
 * BASEBOARD_DATABASE_URL) refused a write, in words a person can act on (pure); undefined for
 * an error that is not the store's. SQLite says it in `code` (SQLITE_FULL…), PostgreSQL in its
 * SQLSTATE (53100 disk full, 25006 read-only transaction…), the system in errno names. A pooled
 * client whose backend was just terminated fails its next write with EPIPE or ECONNRESET.
 */
const REASONS: [RegExp, string][] = [
  [/SQLITE_FULL|ENOSPC|EDQUOT|database or disk is full|could not extend file|\b53100\b/i, "its disk is full"],
  [/SQLITE_READONLY|EROFS|readonly database|read-only transaction|\b25006\b/i, "it is read-only"],
  [/SQLITE_BUSY|SQLITE_LOCKED|database is locked|\b55P03\b|lock timeout/i, "another process holds it locked"],
  [/SQLITE_IOERR|SQLITE_CANTOPEN|\bEIO\b|unable to open database/i, "its files could not be read or written (an I/O error)"],
  [/ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|Connection terminated|Client was closed|timeout exceeded when trying to connect|not currently accepting connections|connection error and is not queryable|\b57P0[1-3]\b|\b08\d\d\d\b/i, "its database cannot be reached"],
];

export function whyUnwritable(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const text = `${String(e?.code ?? "")} ${String(e?.message ?? "")}`;
  return REASONS.find(([re]) => re.test(text))?.[1];
}

/** What a change refused because the activity log could not record it (fail closed) is answered. */
export function trailRefusal(err: unknown, opts: { ownWords?: boolean } = {}): string {
  // Another error's own words (SQL, a program's) go to the operator: in the proxy's log, which
  // its caller writes, or on a command's terminal (ownWords); never in an HTTP answer.
  const why = whyUnwritable(err) ?? (opts.ownWords ? `it failed: ${String((err as Error)?.message ?? err)}` : "an unexpected error, written in the proxy's log");
  return `The activity log cannot be written right now (${why}), so nothing was changed. Check the storage behind DATA_DIR or BASEBOARD_DATABASE_URL, then try again.`;
}
