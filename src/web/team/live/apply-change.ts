/**
 * A change someone else made, applied to what this tab has cached: changed cells patched in
 * place (and flashed), pages whose filter or sort uses a changed Field refetched with their
 * counts (the change may move Records in or out), inserts, deletes, imports and changes whose
 * Records are unknown refetch the table; a bucket's change refetches its listings.
 */
import type { QueryClient } from "@tanstack/react-query";
import { type QueryBody, type QueryResult, type RecordRow, recordKeyText } from "../../../shared/records";
import { recordKeys } from "../../records/records-keys";
import { storageKeys } from "../../storage/storage-keys";
import type { AuditFilters } from "../audit/audit-list-query";
import { teamKeys } from "../team-keys";
import { filterUses, patchRows } from "./apply-change.utils";
import { liveActions } from "./live-store";
import type { LiveChange } from "./live-types";

export function applyChange(qc: QueryClient, e: LiveChange, pkOf: (table: string) => string | undefined, myTab: string): void {
  // This tab made it, and already shows it; a storage job's end it hears too (below).
  if (e.tab === myTab && e.kind !== "storage-job") return;
  if (e.bucket) {
    // This tab's own job, ended: its listing is read again, with no notice of its own action
    // (review 46b #8: a rename or copy came back as "Ada moved …" in the tab that did it).
    if (e.tab === myTab) return void refetchBucketSoon(qc, e.bucket);
    // New or replaced: was the key in a listing this tab has? (Looked up before the refetch.)
    const known = (key: string) => qc.getQueriesData({ queryKey: storageKeys.bucket(e.bucket as string) }).some(([, d]) => d !== undefined && JSON.stringify(d).includes(JSON.stringify(key)));
    const keys = e.keys ?? [];
    const what =
      e.kind === "upload" ? (keys.some(known) ? "replaced" : "new") : e.kind === "delete-file" || e.job === "delete" ? "deleted" : e.job === "copy" ? "copied" : e.job === "move" ? "moved" : "moved or copied";
    liveActions.bucketNews(e.bucket, {
      id: e.id,
      at: e.at,
      who: e.origin === "outside" ? e.actor.name : `${e.actor.name} (${e.actor.email})`,
      what,
      keys,
      ...(e.from !== undefined ? { from: e.from } : {}),
      ...(e.to !== undefined ? { to: e.to } : {}),
      ...(e.kind === "storage-job" && e.count !== undefined ? { count: e.count } : {}),
      ...(e.cancelled ? { cancelled: true } : {}),
    });
    refetchBucketSoon(qc, e.bucket);
    return;
  }
  if (!e.table) return;
  // The trail has a new entry: a History tab open on this table's Records (and Activity read
  // for it) shows it, instead of calling an older version the current one.
  void qc.invalidateQueries({ queryKey: teamKeys.auditAll(), predicate: (q) => (q.queryKey[2] as AuditFilters | undefined)?.table === e.table });
  const [db, table] = e.table.split("/");
  const pk = pkOf(e.table);
  const refetchTable = () =>
    Promise.all([qc.invalidateQueries({ queryKey: recordKeys.table(db, table) }), qc.invalidateQueries({ queryKey: recordKeys.tableCounts(db, table) })]);
  if (e.kind !== "update" || e.truncated || !e.records || !pk) {
    void refetchTable();
    if (e.kind === "delete-records" && e.records) liveActions.flash(e.table, e.records.map((r) => ({ pk: r.key, fields: [] })), e.actor, e.at, true);
    if (e.kind === "insert" && e.records) liveActions.broughtBack(e.table, e.records.map((r) => r.key), e.actor, e.at);
    return;
  }
  const fields = new Set(e.fields ?? []);
  const byKey = new Map(e.records.map((r) => [recordKeyText(r.key), r.values ?? {}]));
  for (const [key, data] of qc.getQueriesData<QueryResult | RecordRow | null>({ queryKey: recordKeys.table(db, table) })) {
    if (!data) continue;
    const kind = key[3];
    if (kind === "distinct") continue;
    if (kind === "record") {
      const one = patchRows([data as RecordRow], pk, byKey);
      if (one.hit.length) qc.setQueryData(key, one.rows[0]);
      continue;
    }
    const body = kind as QueryBody | undefined;
    const page = data as QueryResult;
    if (!page.items) continue;
    if (filterUses(body?.filter, fields) || body?.sort?.some((s) => fields.has(s.key))) {
      void qc.invalidateQueries({ queryKey: key, exact: true });
      continue;
    }
    const out = patchRows(page.items, pk, byKey);
    if (out.hit.length) qc.setQueryData(key, { ...page, items: out.rows });
  }
  void qc.invalidateQueries({ queryKey: recordKeys.tableCounts(db, table), predicate: (q) => filterUses(q.queryKey[3], fields) });
  liveActions.flash(e.table, e.records.map((r) => ({ pk: r.key, fields: Object.keys(r.values ?? {}) })), e.actor, e.at);
}

/**
 * A bucket's listings fetched again once events stop coming for a moment: 400 uploads by someone
 * else were 400 listing requests from every open bucket page, and with parallel uploads the
 * uploader's own page ran out of connections (review 29b #3). At most one fetch per quarter
 * second, and one at the end.
 */
const BUCKET_REFETCH_MS = 250;
const bucketTimers = new Map<string, ReturnType<typeof setTimeout>>();
function refetchBucketSoon(qc: QueryClient, bucket: string): void {
  if (bucketTimers.has(bucket)) return;
  bucketTimers.set(
    bucket,
    setTimeout(() => {
      bucketTimers.delete(bucket);
      void qc.invalidateQueries({ queryKey: storageKeys.bucket(bucket) });
    }, BUCKET_REFETCH_MS),
  );
}
