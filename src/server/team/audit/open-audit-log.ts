/** Opens the audit trail where the environment says: PostgreSQL with BASEBOARD_DATABASE_URL, else DATA_DIR/audit.sqlite. */
import path from "node:path";
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
