/** GET …/fields (extension): a table's Fields and types, when the upstream has the endpoint. */
import { queryOptions } from "@tanstack/react-query";
import type { FieldsResponse } from "../../shared/records";
import { api } from "../api-client";
import { recordPath } from "./record-path";
import { recordKeys } from "./records-keys";

export const fieldsQueryOptions = (db: string, table: string, enabled = true) =>
  queryOptions({
    queryKey: recordKeys.fields(db, table),
    queryFn: ({ signal }) => api<FieldsResponse>(recordPath(db, table, "fields"), { signal }),
    staleTime: 5 * 60_000,
    enabled,
  });
