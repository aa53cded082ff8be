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

/**
 * `fields`: the change to one of these Fields, not the Record's newest (review 49b #2: a panel
 * Save whose other Fields were saved named its own author as who changed the one that conflicted).
 */
export async function lastChangeOf(db: string, table: string, record: string, fields?: readonly string[]): Promise<LastChange | undefined> {
  try {
    const page = await api<AuditPage>(`/api/audit?${auditSearch({ table: `${db}/${table}`, record, kind: "update,import,delete-records,insert" }, null, 10)}`, { signal: AbortSignal.timeout(3000) });
    const touches = (i: AuditPage["items"][number]) =>
      !fields?.length || i.action !== "update" || !i.changes || i.changes.some((c) => fields.some((f) => f in (c.after ?? {}) || f in (c.before ?? {})));
    // One that changed something: a refused attempt (the conflict being explained, recorded as an
    // update that matched nothing) named its own author (review 57b #1: "changed by Ada" to Ada).
    const hit = page.items.find((i) => i.outcome === "applied" && i.count !== 0 && touches(i));
    return hit ? { actor: whoText(hit), at: hit.at } : undefined;
  } catch {
    return undefined;
  }
}

/** " by Ada Admin (ada@example.com) (25 Nov 2026, 10:42:07)" or "" when nobody is known. */
export const byWhom = (c: LastChange | undefined) => (c ? ` by ${c.actor} (${formatWhen(c.at)})` : "");
