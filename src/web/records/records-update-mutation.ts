/** POST …/update, and what every writer does afterwards: refetch the table's pages and counts. */
import type { QueryClient } from "@tanstack/react-query";
import type { UpdateBody } from "../../shared/records";
import { apiFetch } from "../api-client";
import { matchedCount } from "./grid/edit.utils";
import { recordPath } from "./record-path";
import { teamKeys } from "../team/team-keys";
import { recordKeys } from "./records-keys";

export interface UpdateOutcome {
  /** From x-matched-count; undefined when the upstream does not say. */
  matched: number | undefined;
}

export async function updateRecords(db: string, table: string, body: UpdateBody, headers?: Record<string, string>): Promise<UpdateOutcome> {
  const res = await apiFetch(recordPath(db, table, "update"), { method: "POST", json: { fixedValue: [], ...body }, headers });
  await res.json().catch(() => undefined);
  return { matched: matchedCount(res.headers) };
}

/** After a write: every page and count of the table is stale. */
export async function invalidateTableRecords(qc: QueryClient, db: string, table: string): Promise<void> {
  await Promise.all([
    qc.invalidateQueries({ queryKey: recordKeys.table(db, table) }),
    qc.invalidateQueries({ queryKey: recordKeys.tableCounts(db, table) }),
    // Every write is recorded: a Record's History tab and the Activity list show it at once.
    qc.invalidateQueries({ queryKey: teamKeys.auditAll() }),
  ]);
}
