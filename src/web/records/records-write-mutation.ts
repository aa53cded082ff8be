/** POST …/insert and …/delete (issue 24): the local service's extensions for whole Records. */
import type { FilterGroup } from "../../shared/filter";
import type { RecordRow } from "../../shared/records";
import type { WriteCount } from "../../shared/record-writes";
import { apiFetch } from "../api-client";
import { recordPath } from "./record-path";

export async function insertRecords(db: string, table: string, records: RecordRow[], headers?: Record<string, string>): Promise<number> {
  const res = await apiFetch(recordPath(db, table, "insert"), { method: "POST", json: { records }, headers });
  return ((await res.json()) as WriteCount).count;
}

/** Deletes what `filter` matches only when that is exactly `expectedCount` (else a 409, nothing deleted). */
export async function deleteRecords(db: string, table: string, filter: FilterGroup, expectedCount: number, headers?: Record<string, string>): Promise<number> {
  const res = await apiFetch(recordPath(db, table, "delete"), { method: "POST", json: { filter, expectedCount }, headers });
  return ((await res.json()) as WriteCount).count;
}
