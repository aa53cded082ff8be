/** POST …/query: one page of Records for the grid (and the plain fetcher other parts reuse). */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { QueryBody, QueryResult } from "../../shared/records";
import { api } from "../api-client";
import { recordPath } from "./record-path";
import { recordKeys } from "./records-keys";

export function queryRecords(db: string, table: string, body: QueryBody, signal?: AbortSignal): Promise<QueryResult> {
  return api<QueryResult>(recordPath(db, table, "query"), { method: "POST", json: body, signal });
}

export const recordsQueryOptions = (db: string, table: string, body: QueryBody) =>
  queryOptions({
    queryKey: recordKeys.page(db, table, body),
    queryFn: ({ signal }) => queryRecords(db, table, body, signal),
    placeholderData: keepPreviousData,
    // Deep-comparing up to 1,000 rows with the previous answer costs more than re-rendering
    // the ~30 rows on screen.
    structuralSharing: false,
    meta: { handlesErrors: true },
  });
