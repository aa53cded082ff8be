/** Query keys of the team layer's resources (who am I, people, sessions, the audit trail). */
import type { AuditFilters } from "./audit/audit-list-query";

export const teamKeys = {
  all: () => ["team"] as const,
  me: () => ["team", "me"] as const,
  mySessions: () => ["team", "me", "sessions"] as const,
  people: () => ["team", "people"] as const,
  /** Whether a table or bucket missing from the catalog is hidden from me (a grant of none). */
  hidden: (kind: "table" | "bucket", name: string) => ["team", "me", "hidden", kind, name] as const,
  auditAll: () => ["team", "audit"] as const,
  audit: (f: AuditFilters) => ["team", "audit", f] as const,
};
