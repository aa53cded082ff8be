/** Opens the audit trail where the environment says: PostgreSQL with BASEBOARD_DATABASE_URL, else DATA_DIR/audit.sqlite. */
import path from "node:path";
import type { AuditLog } from "./audit-log";
import { openPostgresAuditLog } from "./postgres-audit-log";
import { openSqliteAuditLog } from "./sqlite-audit-log";

export async function openAuditLog(env: NodeJS.ProcessEnv): Promise<AuditLog> {
  const url = env.BASEBOARD_DATABASE_URL?.trim();
  if (url) return openPostgresAuditLog(url);
  return openSqliteAuditLog(path.resolve(env.DATA_DIR ?? ".data"));
}
