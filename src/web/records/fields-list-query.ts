/** GET …/fields (extension): a table's Fields and types, when the upstream has the endpoint. */
import { queryOptions } from "@tanstack/react-query";
import type { FieldsResponse, QueryResult } from "../../shared/records";
import { api } from "../api-client";
import { recordPath } from "./record-path";
import { recordKeys } from "./records-keys";
import { queryRecords } from "./records-list-query";

export const fieldsQueryOptions = (db: string, table: string, enabled = true) =>
  queryOptions({
    queryKey: recordKeys.fields(db, table),
    queryFn: ({ signal }) => api<FieldsResponse>(recordPath(db, table, "fields"), { signal }),
    staleTime: 5 * 60_000,
    enabled,
  });

/**
 * Without the fields endpoint: one Record with no `select`, so a view that shows only some
 * columns (`cols=` in a fresh browser) still learns every Field of the table (issue 23 item 5).
 */
export const fieldsProbeQueryOptions = (db: string, table: string, enabled: boolean) =>
  queryOptions({
    queryKey: recordKeys.fieldsProbe(db, table),
    queryFn: ({ signal }): Promise<QueryResult> => queryRecords(db, table, { limit: 1 }, signal),
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
    meta: { handlesErrors: true },
  });
