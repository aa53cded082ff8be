/**
 * Server data of the records workspace: one queryOptions per resource (every variable the fetch
 * uses is in its key) and plain fetchers for updates. Nothing here is copied into a store.
 */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, apiFetch } from "../api-client";
import type { FilterGroup } from "../../shared/filter";
import type { AppConfig } from "../../shared/meta";
import type { FieldsResponse, QueryBody, QueryResult, UpdateBody } from "../../shared/records";
import { matchedCount } from "./grid/edit.utils";

const recordPath = (db: string, table: string, op: string) =>
  `/api/v0/record/${encodeURIComponent(db)}/${encodeURIComponent(table)}/${op}`;

export const configQueryOptions = () =>
  queryOptions({
    queryKey: ["config"],
    queryFn: ({ signal }) => api<AppConfig>("/api/config", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { handlesErrors: true },
  });

export const fieldsQueryOptions = (db: string, table: string, enabled = true) =>
  queryOptions({
    queryKey: ["fields", db, table],
    queryFn: ({ signal }) => api<FieldsResponse>(recordPath(db, table, "fields"), { signal }),
    staleTime: 5 * 60_000,
    enabled,
  });

export function queryRecords(db: string, table: string, body: QueryBody, signal?: AbortSignal): Promise<QueryResult> {
  return api<QueryResult>(recordPath(db, table, "query"), { method: "POST", json: body, signal });
}

export const recordsQueryOptions = (db: string, table: string, body: QueryBody) =>
  queryOptions({
    queryKey: ["records", db, table, body],
    queryFn: ({ signal }) => queryRecords(db, table, body, signal),
    placeholderData: keepPreviousData,
    // Deep-comparing up to 1,000 rows with the previous answer costs more than re-rendering
    // the ~30 rows on screen.
    structuralSharing: false,
    meta: { handlesErrors: true },
  });

/** How many Records match a filter (limit 0: only the count comes back). */
export const countQueryOptions = (db: string, table: string, filter: FilterGroup | undefined) =>
  queryOptions({
    queryKey: ["count", db, table, filter ?? null],
    queryFn: ({ signal }) => queryRecords(db, table, filter ? { filter, limit: 0 } : { limit: 0 }, signal).then((r) => r.count),
    meta: { handlesErrors: true },
  });

export interface UpdateOutcome {
  /** From x-matched-count; undefined when the upstream does not say. */
  matched: number | undefined;
}

export async function updateRecords(db: string, table: string, body: UpdateBody): Promise<UpdateOutcome> {
  const res = await apiFetch(recordPath(db, table, "update"), { method: "POST", json: { fixedValue: [], ...body } });
  await res.json().catch(() => undefined);
  return { matched: matchedCount(res.headers) };
}
