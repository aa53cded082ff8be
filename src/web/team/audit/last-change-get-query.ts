/**
 * Who last changed a Record, from the audit trail, for conflict messages ("Ada Lovelace changed
 * it at 10:42"). Best effort: no answer (an old proxy, an error) leaves the message as it was.
 */
import { api } from "../../api-client";
import { formatWhen } from "./format-when";
import type { AuditPage } from "./audit-list-query";
import { auditSearch, whoText } from "./audit-list-query";

export interface LastChange {
  actor: string;
  at: string;
}

export async function lastChangeOf(db: string, table: string, record: string): Promise<LastChange | undefined> {
  try {
    const page = await api<AuditPage>(`/api/audit?${auditSearch({ table: `${db}/${table}`, record, kind: "update,import,delete-records,insert" }, null, 5)}`, { signal: AbortSignal.timeout(3000) });
    const hit = page.items.find((i) => i.outcome === "applied");
    return hit ? { actor: whoText(hit), at: hit.at } : undefined;
  } catch {
    return undefined;
  }
}

/** " by Ada Admin (ada@example.com) (25 Nov 2026, 10:42:07)" or "" when nobody is known. */
export const byWhom = (c: LastChange | undefined) => (c ? ` by ${c.actor} (${formatWhen(c.at)})` : "");
