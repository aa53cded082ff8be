/** Opens the audit trail where the environment says: PostgreSQL with BASEBOARD_DATABASE_URL, else DATA_DIR/audit.sqlite. */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { AuditLog } from "./audit-log";
import { openPostgresAuditLog } from "./postgres-audit-log";
import { AUDIT_RESERVE_MB, openSqliteAuditLog } from "./sqlite-audit-log";

export async function openAuditLog(env: NodeJS.ProcessEnv): Promise<AuditLog> {
  const url = env.BASEBOARD_DATABASE_URL?.trim();
  if (url) return openPostgresAuditLog(url);
  const reserve = env.BASEBOARD_AUDIT_RESERVE_MB?.trim();
  const mb = reserve ? Number(reserve) : AUDIT_RESERVE_MB;
  if (!Number.isFinite(mb) || mb < 0) throw new Error(`BASEBOARD_AUDIT_RESERVE_MB must be a number of megabytes, 0 or more (got "${reserve}").`);
  return openSqliteAuditLog(path.resolve(env.DATA_DIR ?? ".data"), mb);
}

/**
 * Why the commands cannot read a trail where the environment says (a mistyped DATA_DIR, a
 * database that holds no activity log or cannot be reached, an empty file), said for them to
 * refuse; undefined when one is there. They never make one (review 50a #1: verify made an empty
 * trail there, and said it verified; review 51a #2: an empty file was filled with new tables,
 * and verified).
 */
export async function unusableAuditLog(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const url = env.BASEBOARD_DATABASE_URL?.trim();
  if (url) {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {});
    try {
      await client.connect();
    } catch (e) {
      // The driver's words ("connect ECONNREFUSED …", "database "x" does not exist") with ours.
      return `Cannot open the database BASEBOARD_DATABASE_URL names (${(e as Error).message}): check that PostgreSQL is running there and that the address, user, password and database name are right. Nothing was read or changed.`;
    }
    try {
      const { rows } = await client.query<{ found: boolean }>("SELECT to_regclass('bb_audit') IS NOT NULL AS found");
      return rows[0]?.found ? undefined : `There is no activity log in the database BASEBOARD_DATABASE_URL names (no bb_audit table): check that it is the database Baseboard's proxy uses for people and the log, not the records' one. Nothing was changed.`;
    } finally {
      await client.end().catch(() => {});
    }
  }
  const file = path.join(path.resolve(env.DATA_DIR ?? ".data"), "audit.sqlite");
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return `There is no activity log at ${file}: Baseboard keeps it there once it has run with this DATA_DIR. Check DATA_DIR (or set BASEBOARD_DATABASE_URL where the log is in PostgreSQL). Nothing was changed.`;
  // Baseboard writes its tables into the file as it makes it: an empty one was cut short or
  // replaced, and holds no entry to verify.
  if (stat.size === 0) return `The activity log file at ${file} is empty (0 bytes): it was cut short or replaced, so there is nothing to verify. Restore it from a backup. Nothing was changed.`;
  return undefined;
}
